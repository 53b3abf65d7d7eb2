import type { ReactNode } from "react";
import { ConsoleProviders } from "./providers";
import "./console.css";

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleProviders>{children}</ConsoleProviders>;
}
