// The console's overview: how the business is doing at a glance. Net revenue (the ledger: charges minus refunds) for
// today, the last 7 and the last 30 days, each against the previous period; then, for the range the seller picked, paid
// calls, refunds, unique payers per kind, revenue per day (or hour, for a single day) and calls per operation. Every
// figure is an SQL aggregate over the ledger's covering index (analytics.queries.ts); the paid path does nothing extra.
import { microsToUsd } from "../lib/money";
import { RAILS } from "../payments/rails";
import { countPayers, groupLedger, sumLedgerSpans, type LedgerTotals } from "./analytics.queries";
import { findRolledThrough } from "./rollup.queries";
import { percentChange, rangeBuckets, resolveRange, type RangeInput } from "./date-range";

const net = (t: LedgerTotals) => t.chargedMicros - t.refundedMicros;

function figure(current: LedgerTotals, previous: LedgerTotals) {
  return {
    netUsd: microsToUsd(net(current)),
    previousNetUsd: microsToUsd(net(previous)),
    changePercent: percentChange(net(current), net(previous)),
  };
}

/** Which payer kind each rail records; rails seen in old rows but no longer registered count as wallets if unknown. */
export function railPayerKinds(): { rail: string; kind: string }[] {
  return RAILS.map((r) => ({ rail: r.name, kind: r.payerKind }));
}

export async function getOverview(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const presets = (["today", "7d", "30d"] as const).map((preset) => resolveRange({ preset }, now));
  const spans = presets.flatMap((p) => [
    { start: p.start, end: p.end },
    { start: p.prevStart, end: p.prevEnd },
  ]);
  const kinds = railPayerKinds();
  const through = await findRolledThrough(sellerId);
  const [totals, groups, payers] = await Promise.all([
    sumLedgerSpans(sellerId, [...spans, { start: range.start, end: range.end }, { start: range.prevStart, end: range.prevEnd }], through),
    groupLedger(sellerId, range, range.bucket, through),
    countPayers(sellerId, range, through, kinds),
  ]);
  const headline = totals.slice(0, 6);
  const [current, previous] = totals.slice(6);

  const series = rangeBuckets(range, now).map((bucket) => {
    const of = (kind: string) => groups.find((g) => g.grp === "bucket" && g.bucket === bucket && g.kind === kind);
    const charged = of("charge")?.micros ?? 0n;
    const refunded = of("refund")?.micros ?? 0n;
    return {
      bucket,
      netUsd: microsToUsd(charged - refunded),
      chargedUsd: microsToUsd(charged),
      refundedUsd: microsToUsd(refunded),
      // Paid calls: charged ones and those served on prepaid credit.
      calls: (of("charge")?.entries ?? 0) + (of("draw")?.entries ?? 0),
    };
  });

  const ops = new Map<string, { calls: number; chargedMicros: bigint; refundedMicros: bigint; refunds: number }>();
  for (const g of groups) {
    if (g.grp !== "operation") continue;
    const key = g.operationKey ?? "(unknown)";
    const o = ops.get(key) ?? { calls: 0, chargedMicros: 0n, refundedMicros: 0n, refunds: 0 };
    if (g.kind === "charge") {
      o.calls += g.entries;
      o.chargedMicros += g.micros;
    } else if (g.kind === "draw") {
      o.calls += g.entries;
    } else if (g.kind === "refund") {
      o.refunds += g.entries;
      o.refundedMicros += g.micros;
    }
    ops.set(key, o);
  }
  const byOperation = [...ops.entries()]
    .map(([operation, o]) => ({ operation, calls: o.calls, refunds: o.refunds, netUsd: microsToUsd(o.chargedMicros - o.refundedMicros) }))
    .sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation));

  const payerCount = (rows: { kind: string; payers: number }[], kind: string) => rows.find((p) => p.kind === kind)?.payers ?? 0;
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days, bucket: range.bucket },
    previous: { start: range.prevStart.toISOString(), end: range.prevEnd.toISOString() },
    headline: {
      today: figure(headline[0]!, headline[1]!),
      last7Days: figure(headline[2]!, headline[3]!),
      last30Days: figure(headline[4]!, headline[5]!),
    },
    totals: {
      ...figure(current!, previous!),
      chargedUsd: microsToUsd(current!.chargedMicros),
      refundedUsd: microsToUsd(current!.refundedMicros),
      paidCalls: current!.charges + current!.draws,
      previousPaidCalls: previous!.charges + previous!.draws,
      paidCallsChangePercent: percentChange(BigInt(current!.charges + current!.draws), BigInt(previous!.charges + previous!.draws)),
      // Served on prepaid credit (part of paid calls; not revenue: the plan purchase was).
      creditCalls: current!.draws,
      drawnUsd: microsToUsd(current!.drawnMicros),
      refunds: current!.refunds,
      wallets: payerCount(payers, "wallet"),
      credentials: payerCount(payers, "credential"),
      cards: payerCount(payers, "card"),
      // Which kinds of payer the registered rails record, so the page says what "0 credentials" means.
      payerKinds: [...new Set(kinds.map((k) => k.kind))],
    },
    series,
    byOperation,
  };
}
