import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentSession } from "@/server/auth/session";
import { Shell } from "../_components/shell";

export const dynamic = "force-dynamic";

// Every console page but the sign-in: signed-in sellers only (the data itself is scoped by tRPC's sellerProcedure).
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (session?.user.kind !== "seller") redirect("/console/sign-in");
  return <Shell email={session.user.email}>{children}</Shell>;
}
