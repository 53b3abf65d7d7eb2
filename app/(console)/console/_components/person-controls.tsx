"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../providers";
import { count } from "./format";
import { Section } from "./section";
import type { Outputs } from "./types";

type PersonControls = Outputs["analytics"]["funnel"]["personControls"];

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The calls the agents' people held or refused, apart from payment problems, in plain words. */
function PersonControlsWords({ c }: { c: PersonControls }) {
  return (
    <>
      <span data-testid="person-controls-held" data-count={c.held}>
        {plural(c.held, "request was", "requests were")} held for the approval of the person who claimed the agent
      </span>{" "}
      (
      <span data-testid="person-controls-pending" data-count={c.pendingNow}>
        {plural(c.pendingNow, "approval waits", "approvals wait")} for an answer now
      </span>
      {c.declined > 0 ? `, ${plural(c.declined, "retry was", "retries were")} refused as declined or expired` : ""}),{" "}
      <span data-testid="person-controls-budget" data-count={c.budgetRefused}>
        {plural(c.budgetRefused, "request was", "requests were")} refused by a budget that person set
      </span>
      {c.otherControls > 0 ? `, and ${plural(c.otherControls, "more was", "more were")} refused by a frozen agent or a capped wallet` : ""}. Nothing was charged
      for them: these are the buyers&apos; own rules, not payment problems.
    </>
  );
}

/** The funnel's section: held and refused by the agents' people, in the range and filter shown. */
export function PersonControlsSection({ c }: { c: PersonControls }) {
  return (
    <Section title="Held or refused by the agents' people" testId="section-person-controls">
      <p className="text-sm text-slate-700" data-testid="person-controls">
        <PersonControlsWords c={c} />
      </p>
    </Section>
  );
}

/** The Payments page's note: such calls have no payment (nothing was charged), so they are counted on the funnel. */
export function PersonControlsNote() {
  const trpc = useTRPC();
  const q = useQuery(trpc.analytics.funnel.queryOptions({ preset: "7d" }));
  const c = q.data?.personControls;
  if (!c || c.held + c.pendingNow + c.budgetRefused + c.declined + c.otherControls === 0) return null;
  return (
    <p className="mt-4 text-sm text-slate-700" data-testid="payments-person-controls">
      Not in this list, in the last 7 days: <PersonControlsWords c={c} />{" "}
      <Link href="/console/funnel" className="underline">
        See the funnel
      </Link>
      .
    </p>
  );
}
