import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentSession } from "@/server/auth/session";
import { Prefetched } from "../_components/prefetch";
import { Shell } from "../_components/shell";

export const dynamic = "force-dynamic";

// Every console page but the sign-in: signed-in sellers only (the data itself is scoped by tRPC's sellerProcedure). The
// shell's storefront name is rendered with the page, not fetched after it.
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (session?.user.kind !== "seller") redirect("/console/sign-in");
  return (
    // The team: whether this member is an owner decides which controls the pages offer (owner-only.tsx).
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.settings.get.queryOptions(undefined)), qc.prefetchQuery(trpc.team.members.queryOptions())]}>
      <Shell email={session.user.email}>{children}</Shell>
    </Prefetched>
  );
}
