// The 402 funnel: where agents drop off between the challenge and the paid call, per operation and per rail.
// Two views of the same facts, neither counted on the paid path:
//  - stages, each a subset of the one before (the page's funnel and its conversion), over the 402s of the range:
//      issued (every 402; count-challenges-issued.ts) -> answered (a proof locked it, or a person opened its card
//      checkout) -> verified (the proof held, or the checkout was paid) -> served (the upstream answered and the charge
//      was decided; a card checkout is charged before it is served, so a paid one counts here) -> settled (the money
//      moved: settled, consumed or refunded since);
//  - steps, counted as what happened (the page's side figures and the per-rail table): proofs received are every
//    proof that verified and locked a payment plus every refused one (payment_refusals), including proofs that answer
//    no challenge of ours (x402 v1 clients) and replays, so proofs can outnumber challenges; each drop is what happened
//    (released with its reason, failed with its settlement reason), never a difference of two steps.
// Prepaid credit (an implicit rail: the agent's bearer, no 402) is usage, not a payment answering a 402: it is left out
// of both (the Usage page has it). A 402 offers every rail at once, so issued and never-paid have no rail.
import { RAILS } from "../payments/rails";
import { countChallengesIssued } from "./count-challenges-issued";
import { explainFailure, explainRefusal, PERSON_CONTROL_CODES, type Explanation } from "./explain-refusal";
import { countPendingApprovals, countSettling, groupPayments, groupRefusals, sumExpiredChallenges } from "./funnel.queries";
import { findRolledThrough } from "./rollup.queries";
import { splitByTransport } from "./split-by-transport";
import { resolveRange, type RangeInput } from "../lib/date-range";

export type FunnelCounts = {
  issued: number;
  neverPaid: number;
  proofs: number;
  refused: number;
  verified: number;
  released: number;
  beingServed: number;
  served: number;
  failed: number;
  settling: number;
  settled: number;
};

/** The stages, each a subset of the one before; `withoutChallenge`: paid proofs that answered no 402 of ours (beside them). */
export type FunnelStages = { issued: number; answered: number; verified: number; served: number; settled: number; withoutChallenge: number };

type Cell = { counts: FunnelCounts; stages: FunnelStages };

const zero = (): FunnelCounts => ({
  issued: 0,
  neverPaid: 0,
  proofs: 0,
  refused: 0,
  verified: 0,
  released: 0,
  beingServed: 0,
  served: 0,
  failed: 0,
  settling: 0,
  settled: 0,
});
const zeroStages = (): FunnelStages => ({ issued: 0, answered: 0, verified: 0, served: 0, settled: 0, withoutChallenge: 0 });

function add<T extends Record<string, number>>(into: T, from: T): void {
  for (const k of Object.keys(into) as (keyof T)[]) (into[k] as number) += from[k] as number;
}

/** part / whole in percent with one decimal; null without a whole. */
function percent(part: number, whole: number): string | null {
  if (whole === 0) return null;
  return (Math.round((part / whole) * 1000) / 10).toFixed(1);
}

/** Settled payments per challenge issued (every settled payment, x402 v1 ones included). */
const conversion = (c: FunnelCounts) => percent(c.settled, c.issued);

const STEP_ORDER = { proof: 0, serve: 1, settle: 2 } as const;
type Step = keyof typeof STEP_ORDER;
type Reason = { step: Step; code: string; operation: string; rail: string | null; count: number };

export type FunnelFilter = RangeInput & { operation?: string | null; rail?: string | null };

const PAID = new Set(["settled", "consumed", "refunded"]);
// Paid to be served: charged (or charging) after the upstream answered, or a card checkout charged before it.
const SERVED = new Set([...PAID, "failed"]);

async function readFacts(sellerId: string, range: ReturnType<typeof resolveRange>) {
  const days: [string, string] = [range.from, range.to];
  const through = await findRolledThrough(sellerId);
  const [issued, payments, settling, refusals, expired] = await Promise.all([
    countChallengesIssued(sellerId, days, through),
    groupPayments(sellerId, days, through),
    countSettling(sellerId, { start: range.start, end: range.end }),
    groupRefusals(sellerId, days, through),
    sumExpiredChallenges(sellerId, days, through),
  ]);
  // Prepaid credit is usage, not a payment answering a 402 (see the top of this file).
  const implicit = new Set(RAILS.filter((r) => r.implicit).map((r) => r.name as string));
  const money = <T extends { rail: string | null }>(rows: T[]) => rows.filter((r) => !implicit.has(r.rail ?? ""));
  // A person's control refusing or holding a call (a budget, an approval, a freeze, a wallet cap) is a drop the seller
  // sees whatever paid it, plan credit included.
  const dropped = refusals.filter((r) => PERSON_CONTROL_CODES.has(r.code) || !implicit.has(r.rail ?? ""));
  return { issued, payments: money(payments), settling: money(settling), refusals: dropped, expired };
}

/** Every fact into one cell per (operation, rail); rail "" holds what has no rail (challenges) or several (two rails' proofs). */
function tally(facts: Awaited<ReturnType<typeof readFacts>>) {
  const cells = new Map<string, Cell>();
  const cell = (op: string, rail: string | null) => {
    const key = `${op}\u0000${rail ?? ""}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { counts: zero(), stages: zeroStages() }));
    return c;
  };
  const reasons = new Map<string, Reason>();
  const reason = (step: Step, code: string, operation: string, rail: string | null, n: number) => {
    const key = [step, code, operation, rail ?? ""].join("\u0000");
    const r = reasons.get(key) ?? { step, code, operation, rail, count: 0 };
    r.count += n;
    reasons.set(key, r);
  };

  for (const [op, n] of facts.issued) {
    cell(op, null).counts.issued += n;
    cell(op, null).stages.issued += n;
  }
  for (const p of facts.payments) {
    if (p.status === "challenged") {
      cell(p.operationKey, null).counts.neverPaid += p.count;
      continue;
    }
    const { counts: c, stages: s } = cell(p.operationKey, p.rail);
    // A card checkout a person opened but has not paid (or let expire): answered, but no proof was verified.
    const unpaidCheckout = p.status === "incomplete" || (p.status === "released" && p.reason === "checkout_expired");
    if (p.fromChallenge) {
      s.answered += p.count;
      if (!unpaidCheckout) s.verified += p.count;
      if (SERVED.has(p.status)) s.served += p.count;
      if (PAID.has(p.status)) s.settled += p.count;
    } else if (PAID.has(p.status)) s.withoutChallenge += p.count;
    if (unpaidCheckout) {
      if (p.status === "released") reason("proof", p.reason ?? "checkout_expired", p.operationKey, p.rail, p.count);
      continue;
    }
    c.proofs += p.count;
    c.verified += p.count;
    if (p.status === "released") {
      c.released += p.count;
      reason("serve", p.reason ?? "released", p.operationKey, p.rail, p.count);
    } else if (p.status === "verified") c.beingServed += p.count;
    else {
      c.served += p.count;
      if (p.status === "failed") {
        c.failed += p.count;
        reason("settle", p.reason ?? "settlement_failed", p.operationKey, p.rail, p.count);
      } else c.settled += p.count;
    }
  }
  // Verified and settling: served already, not yet settled.
  for (const x of facts.settling) {
    const { counts: c, stages: s } = cell(x.operationKey, x.rail);
    c.beingServed -= x.count;
    c.served += x.count;
    c.settling += x.count;
    if (x.fromChallenge) s.served += x.count;
  }
  for (const r of facts.refusals) {
    const c = cell(r.operationKey, r.rail).counts;
    c.proofs += r.count;
    c.refused += r.count;
    reason("proof", r.code, r.operationKey, r.rail, r.count);
  }
  for (const e of facts.expired) cell(e.operationKey, null).counts.neverPaid += e.count;

  const all = [...cells.entries()].map(([key, v]) => {
    const [operation, rail] = key.split("\u0000") as [string, string];
    return { operation, rail: rail || null, ...v };
  });
  return { all, reasons: [...reasons.values()] };
}

type Tallied = ReturnType<typeof tally>["all"];

/** Sum the cells a filter selects. Issued and never-paid belong to no rail: with a rail chosen they still show every 402. */
function select(all: Tallied, operation: string | null, rail: string | null) {
  const counts = zero();
  const stages = zeroStages();
  for (const c of all) {
    if (operation && c.operation !== operation) continue;
    if (rail && c.rail !== null && c.rail !== rail) continue;
    if (rail && c.rail === null) {
      counts.issued += c.counts.issued;
      counts.neverPaid += c.counts.neverPaid;
      stages.issued += c.stages.issued;
      continue;
    }
    add(counts, c.counts);
    add(stages, c.stages);
  }
  return { counts, stages };
}

function stagesView(s: FunnelStages) {
  return { ...s, conversionPercent: percent(s.settled, s.issued) };
}

export async function getFunnel(sellerId: string, input: FunnelFilter = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const [facts, byTransport, pendingNow] = await Promise.all([
    readFacts(sellerId, range),
    splitByTransport(sellerId, range, { operation: input.operation || null, rail: input.rail || null }),
    countPendingApprovals(sellerId),
  ]);
  const { all, reasons } = tally(facts);
  const operations = [...new Set(all.map((c) => c.operation))].sort();
  const rails = [...new Set([...RAILS.filter((r) => !r.implicit).map((r) => r.name as string), ...all.flatMap((c) => (c.rail ? [c.rail] : []))])];
  const opFilter = input.operation || null;
  const railFilter = input.rail || null;
  const selected = select(all, opFilter, railFilter);

  const byOperation = operations.map((operation) => {
    const t = select(all, operation, railFilter);
    return { operation, ...t.counts, conversionPercent: conversion(t.counts), stages: stagesView(t.stages) };
  });
  const byRail = [...rails, null].flatMap((rail) => {
    const t = zero();
    for (const c of all) if (c.rail === rail && c.rail !== null && (!opFilter || c.operation === opFilter)) add(t, c.counts);
    if (rail === null) {
      // Refusals of requests that carried two rails' proofs at once: shown only when there are some.
      for (const c of all) if (c.rail === null && (!opFilter || c.operation === opFilter)) t.refused += c.counts.refused;
      t.proofs = t.refused;
      if (t.refused === 0) return [];
    }
    return [{ rail, ...t }];
  });

  const topReasons = new Map<string, { step: Step; code: string; count: number }>();
  for (const r of reasons) {
    if ((opFilter && r.operation !== opFilter) || (railFilter && r.rail !== railFilter)) continue;
    const key = `${r.step}:${r.code}`;
    const a = topReasons.get(key) ?? { step: r.step, code: r.code, count: 0 };
    a.count += r.count;
    topReasons.set(key, a);
  }
  const explanations: Record<string, Explanation> = {};
  for (const [key, r] of topReasons)
    explanations[key] =
      r.step === "settle"
        ? explainFailure(r.code, "failed")
        : r.step === "serve" || r.code === "checkout_expired"
          ? explainFailure(r.code, "released")
          : explainRefusal(r.code);

  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    filter: { operation: opFilter, rail: railFilter },
    operations,
    rails,
    steps: selected.counts,
    conversionPercent: conversion(selected.counts),
    stages: stagesView(selected.stages),
    byOperation,
    byRail,
    /** HTTP API calls beside MCP tool calls: the stages a proof reaches, per transport (split-by-transport.ts). */
    byTransport,
    // Most frequent first; ties in funnel order (a refused proof before a failed serve before a failed settlement).
    reasons: [...topReasons.values()].sort((a, b) => b.count - a.count || STEP_ORDER[a.step] - STEP_ORDER[b.step] || a.code.localeCompare(b.code)),
    /** What each reason means and what the payer can do, by `${step}:${code}`. */
    explanations,
    /** Calls the agents' people held or refused (server/controls): apart from payment problems, in the range and filter. */
    personControls: personControls(reasons, opFilter, railFilter, pendingNow),
  };
}

/** The proofs a person's control held or refused (approval, budget, freeze, wallet cap), and the approvals waiting now. */
function personControls(reasons: Reason[], operation: string | null, rail: string | null, pendingNow: number) {
  const n = { held: 0, pendingNow, declined: 0, budgetRefused: 0, otherControls: 0 };
  for (const r of reasons) {
    if (r.step !== "proof" || !PERSON_CONTROL_CODES.has(r.code) || (operation && r.operation !== operation) || (rail && r.rail !== rail)) continue;
    if (r.code === "approval_required") n.held += r.count;
    else if (r.code === "approval_declined") n.declined += r.count;
    else if (r.code === "budget_exceeded") n.budgetRefused += r.count;
    else n.otherControls += r.count;
  }
  return n;
}
