"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, type ReactNode } from "react";
import { useTRPC } from "../providers";

/** Why a viewer cannot use a control: said once beside it, and read out with it. */
export const VIEWER_REASON = "Only an owner can change this: you are a viewer of this storefront.";

/**
 * Whether the signed-in member may change things (an owner), from the team query the signed-in layout prefetches. A
 * viewer reads only; the server refuses their changes whatever the page shows (sellerProcedure), so this is manners,
 * not the guard. Unknown while loading: treated as an owner (the server still decides).
 */
export function useIsOwner(): boolean {
  const trpc = useTRPC();
  const q = useQuery(trpc.team.members.queryOptions());
  const me = q.data?.members.find((m) => m.id === q.data?.me);
  return me ? me.role === "owner" : true;
}

/**
 * An owner's controls (a form, a button row): for a viewer the same controls, disabled as one fieldset, with the reason
 * above them, so a viewer sees what an owner could do here and why they cannot.
 */
export function OwnerOnly({ children, className }: { children: ReactNode; className?: string }) {
  const owner = useIsOwner();
  const reason = useId();
  if (owner) return <>{children}</>;
  return (
    <fieldset disabled aria-describedby={reason} className={`min-w-0 ${className ?? ""}`} data-testid="owner-only">
      <p id={reason} className="mb-2 text-sm text-slate-700" data-testid="owner-only-reason">
        {VIEWER_REASON}
      </p>
      {children}
    </fieldset>
  );
}
