// The 402 funnel: where agents drop off between the challenge and the paid call, per operation and per rail.
//   challenges issued -> proofs received -> verified -> served -> settled
// Derived, not counted on the paid path:
//  - issued: payments created as 402 challenges (from_challenge) in the range, plus the unpaid ones the reconciler has
//    since deleted (expired_challenge_counts, written in the statement that deletes them);
//  - never paid: challenges no proof ever answered (still `challenged`, or deleted as such);
//  - proofs received: proofs that verified and locked a payment (every payment with a rail), plus refused proofs
//    (payment_refusals, appended on the refusal path with the code answered);
//  - verified -> served: a verified payment is served when its charge is decided (it has an outbox row: settled,
//    consumed, refunded, failed or still settling); released ones were not (upstream 5xx, timeout, unbillable usage,
//    abandoned), with the reason the payment row keeps;
//  - served -> settled: settled, consumed or refunded; failed ones carry their settlement reason.
// A 402 offers every rail at once, so issued and never-paid have no rail; the later steps do. Proofs can outnumber the
// challenges they answer (replays, x402 v1 proofs that answer no challenge of ours), so each drop is counted as what
// happened, never as a difference of two steps.
import { RAILS } from "../payments/rails";
import { countSettling, groupPayments, groupRefusals, sumExpiredChallenges } from "./funnel.queries";
import { findRolledThrough } from "./rollup.queries";
import { resolveRange, type RangeInput } from "./date-range";

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

function add(into: FunnelCounts, from: FunnelCounts): void {
  for (const k of Object.keys(into) as (keyof FunnelCounts)[]) into[k] += from[k];
}

/** Settled calls per challenge issued, in percent with one decimal; null without challenges. */
function conversion(c: FunnelCounts): string | null {
  if (c.issued === 0) return null;
  return (Math.round((c.settled / c.issued) * 1000) / 10).toFixed(1);
}

const STEP_ORDER = { proof: 0, serve: 1, settle: 2 } as const;

export type FunnelFilter = RangeInput & { operation?: string | null; rail?: string | null };

export async function getFunnel(sellerId: string, input: FunnelFilter = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const span = { start: range.start, end: range.end };
  const days: [string, string] = [range.from, range.to];
  const through = await findRolledThrough(sellerId);
  const [payments, settling, refusals, expired] = await Promise.all([
    groupPayments(sellerId, days, through),
    countSettling(sellerId, span),
    groupRefusals(sellerId, days, through),
    sumExpiredChallenges(sellerId, days, through),
  ]);

  // One cell per (operation, rail); rail "" holds what has no rail (challenges) or several (two rails' proofs at once).
  const cells = new Map<string, FunnelCounts>();
  const cell = (op: string, rail: string | null) => {
    const key = `${op}\u0000${rail ?? ""}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = zero()));
    return c;
  };
  const reasons = new Map<string, { step: "proof" | "serve" | "settle"; code: string; operation: string; rail: string | null; count: number }>();
  const reason = (step: "proof" | "serve" | "settle", code: string, operation: string, rail: string | null, n: number) => {
    const key = [step, code, operation, rail ?? ""].join("\u0000");
    const r = reasons.get(key) ?? { step, code, operation, rail, count: 0 };
    r.count += n;
    reasons.set(key, r);
  };

  for (const p of payments) {
    if (p.fromChallenge) cell(p.operationKey, null).issued += p.count;
    if (p.status === "challenged") {
      cell(p.operationKey, null).neverPaid += p.count;
      continue;
    }
    const c = cell(p.operationKey, p.rail);
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
  for (const s of settling) {
    const c = cell(s.operationKey, s.rail);
    c.beingServed -= s.count;
    c.served += s.count;
    c.settling += s.count;
  }
  for (const r of refusals) {
    const c = cell(r.operationKey, r.rail);
    c.proofs += r.count;
    c.refused += r.count;
    reason("proof", r.code, r.operationKey, r.rail, r.count);
  }
  for (const e of expired) {
    const c = cell(e.operationKey, null);
    c.issued += e.count;
    c.neverPaid += e.count;
  }

  const all = [...cells.entries()].map(([key, counts]) => {
    const [operation, rail] = key.split("\u0000") as [string, string];
    return { operation, rail: rail || null, counts };
  });
  const operations = [...new Set(all.map((c) => c.operation))].sort();
  const rails = [...new Set([...RAILS.map((r) => r.name as string), ...all.flatMap((c) => (c.rail ? [c.rail] : []))])];

  const opFilter = input.operation || null;
  const railFilter = input.rail || null;
  const selected = zero();
  for (const c of all) {
    if (opFilter && c.operation !== opFilter) continue;
    if (railFilter && c.rail !== null && c.rail !== railFilter) continue;
    // Issued and never-paid belong to no rail: with a rail chosen they still show every 402 of the operation.
    if (railFilter && c.rail === null) {
      selected.issued += c.counts.issued;
      selected.neverPaid += c.counts.neverPaid;
      continue;
    }
    add(selected, c.counts);
  }

  const byOperation = operations.map((operation) => {
    const t = zero();
    for (const c of all)
      if (c.operation === operation && (!railFilter || c.rail === null || c.rail === railFilter)) {
        if (railFilter && c.rail === null) {
          t.issued += c.counts.issued;
          t.neverPaid += c.counts.neverPaid;
        } else add(t, c.counts);
      }
    return { operation, ...t, conversionPercent: conversion(t) };
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

  const topReasons = [...reasons.values()]
    .filter((r) => (!opFilter || r.operation === opFilter) && (!railFilter || r.rail === railFilter))
    .reduce((acc, r) => {
      const key = `${r.step}\u0000${r.code}`;
      const a = acc.get(key) ?? { step: r.step, code: r.code, count: 0 };
      a.count += r.count;
      return acc.set(key, a);
    }, new Map<string, { step: "proof" | "serve" | "settle"; code: string; count: number }>());

  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    filter: { operation: opFilter, rail: railFilter },
    operations,
    rails,
    steps: selected,
    conversionPercent: conversion(selected),
    byOperation,
    byRail,
    // Most frequent first; ties in funnel order (a refused proof before a failed serve before a failed settlement).
    reasons: [...topReasons.values()].sort((a, b) => b.count - a.count || STEP_ORDER[a.step] - STEP_ORDER[b.step] || a.code.localeCompare(b.code)),
  };
}
