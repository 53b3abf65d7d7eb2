import type { ReactNode } from "react";
import { ConsoleProviders } from "./providers";

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleProviders>{children}</ConsoleProviders>;
}
