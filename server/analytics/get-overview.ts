// The console's overview: how the business is doing at a glance. Net revenue (the ledger: charges minus refunds) for
// today, month to date, the last 7 and the last 30 days, each against the previous period; then, for the range the
// seller picked: revenue per day (or hour) beside the previous period's, revenue by operation and by rail, paid calls,
// refunds, unique payers per kind, card revenue (card payers have no identity yet), failed and refused payments, the
// 402-to-paid conversion and the margin as far as it is known. Top wallets and credentials are get-top-customers.ts. Every figure is an SQL aggregate over the ledger's covering index (analytics.queries.ts) or the
// funnel's facts; the paid path does nothing extra.
import { microsToUsd } from "../lib/money";
import { RAILS } from "../payments/rails";
import { findSellerSettings } from "../settings/settings.queries";
import { countPayers, groupLedger, sumLedgerSpans, type LedgerGroup, type LedgerTotals } from "./analytics.queries";
import { findRolledThrough } from "./rollup.queries";
import { percentChange, percentOf, rangeBuckets, resolveRange, type DayRange, type RangeInput } from "../lib/date-range";
import { getFunnel } from "./get-funnel";
import { marginRows } from "./get-margin";

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

/** Net revenue per bucket, and the bucket's count of paid calls, from the ledger's per-bucket groups. */
function bucketTotals(groups: LedgerGroup[], bucket: string) {
  const of = (kind: string) => groups.find((g) => g.grp === "bucket" && g.bucket === bucket && g.kind === kind);
  const charged = of("charge")?.micros ?? 0n;
  const refunded = of("refund")?.micros ?? 0n;
  return { charged, refunded, calls: (of("charge")?.entries ?? 0) + (of("draw")?.entries ?? 0) };
}

/** The previous period's bucket that lines up with the i-th bucket of the range (same offset from the start). */
function previousBuckets(range: DayRange, now: Date): string[] {
  const shift = range.start.getTime() - range.prevStart.getTime();
  const width = range.bucket === "hour" ? 13 : 10;
  return rangeBuckets(range, now).map((b) =>
    new Date(Date.parse(range.bucket === "hour" ? `${b}:00:00.000Z` : `${b}T00:00:00.000Z`) - shift).toISOString().slice(0, width),
  );
}

/** Per-operation (or per-rail) money: charges, refunds and net, most net revenue first, with each one's share. */
function revenueBy(groups: LedgerGroup[], key: (g: LedgerGroup) => string) {
  const acc = new Map<string, { payments: number; refunds: number; charged: bigint; refunded: bigint }>();
  for (const g of groups) {
    if (g.grp !== "operation" || (g.kind !== "charge" && g.kind !== "refund")) continue;
    const a = acc.get(key(g)) ?? { payments: 0, refunds: 0, charged: 0n, refunded: 0n };
    if (g.kind === "charge") {
      a.payments += g.entries;
      a.charged += g.micros;
    } else {
      a.refunds += g.entries;
      a.refunded += g.micros;
    }
    acc.set(key(g), a);
  }
  const total = [...acc.values()].reduce((s, a) => s + a.charged - a.refunded, 0n);
  return [...acc.entries()]
    .map(([name, a]) => ({ name, net: a.charged - a.refunded, ...a }))
    .sort((a, b) => (b.net > a.net ? 1 : b.net < a.net ? -1 : a.name.localeCompare(b.name)))
    .map((a) => ({
      name: a.name,
      payments: a.payments,
      refunds: a.refunds,
      chargedUsd: microsToUsd(a.charged),
      refundedUsd: microsToUsd(a.refunded),
      netUsd: microsToUsd(a.net),
      sharePercent: total > 0n && a.net > 0n ? percentOf(a.net, total) : null,
    }));
}

/**
 * Card payers carry no identity yet (checkouts record no payer): their money is one unidentified line, and `customers`
 * is where identified card payers go once checkouts record one.
 */
function cardCustomers(groups: LedgerGroup[]) {
  const cardRails = new Set(
    railPayerKinds()
      .filter((k) => k.kind === "card")
      .map((k) => k.rail),
  );
  let payments = 0;
  let net = 0n;
  for (const g of groups) {
    if (g.grp !== "operation" || !cardRails.has(g.rail ?? "")) continue;
    if (g.kind === "charge") {
      payments += g.entries;
      net += g.micros;
    } else if (g.kind === "refund") net -= g.micros;
  }
  return {
    customers: [] as { kind: "card"; id: string; payments: number; netUsd: string; lastAt: string | null }[],
    unidentified: { payments, netUsd: microsToUsd(net) },
  };
}

/** Net revenue today, month to date, the last 7 and 30 days, each against its previous period: one statement. */
export async function getHeadline(sellerId: string, now: Date = new Date()) {
  const presets = (["today", "mtd", "7d", "30d"] as const).map((preset) => resolveRange({ preset }, now));
  const totals = await sumLedgerSpans(
    sellerId,
    presets.flatMap((p) => [
      { start: p.start, end: p.end },
      { start: p.prevStart, end: p.prevEnd },
    ]),
    await findRolledThrough(sellerId),
  );
  return headlineOf(presets[1]!, totals);
}

function headlineOf(mtd: DayRange, t: LedgerTotals[]) {
  return {
    today: figure(t[0]!, t[1]!),
    monthToDate: { ...figure(t[2]!, t[3]!), from: mtd.from, previousFrom: mtd.prevStart.toISOString().slice(0, 10) },
    last7Days: figure(t[4]!, t[5]!),
    last30Days: figure(t[6]!, t[7]!),
  };
}

export async function getOverview(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const presets = (["today", "mtd", "7d", "30d"] as const).map((preset) => resolveRange({ preset }, now));
  const spans = presets.flatMap((p) => [
    { start: p.start, end: p.end },
    { start: p.prevStart, end: p.prevEnd },
  ]);
  const kinds = railPayerKinds();
  const through = await findRolledThrough(sellerId);
  const [totals, groups, previousGroups, payers, funnel, settings] = await Promise.all([
    sumLedgerSpans(sellerId, [...spans, { start: range.start, end: range.end }, { start: range.prevStart, end: range.prevEnd }], through),
    groupLedger(sellerId, range, range.bucket, through),
    // The previous period, for the chart: a one-day range is compared by hour, longer ones by day.
    groupLedger(sellerId, { start: range.prevStart, end: range.prevEnd }, range.bucket, through),
    countPayers(sellerId, range, through, kinds),
    getFunnel(sellerId, input, now),
    findSellerSettings(sellerId),
  ]);
  const headline = totals.slice(0, 8);
  const [current, previous] = totals.slice(8);

  const labels = rangeBuckets(range, now);
  const previousLabels = previousBuckets(range, now);
  const series = labels.map((bucket, i) => {
    const t = bucketTotals(groups, bucket);
    const p = bucketTotals(previousGroups, previousLabels[i]!);
    return {
      bucket,
      netUsd: microsToUsd(t.charged - t.refunded),
      chargedUsd: microsToUsd(t.charged),
      refundedUsd: microsToUsd(t.refunded),
      // Paid calls: charged ones and those served on prepaid credit.
      calls: t.calls,
      previousBucket: previousLabels[i]!,
      previousNetUsd: microsToUsd(p.charged - p.refunded),
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
  // Calls per operation (usage: charged and drawn on credit), most calls first; money is in revenueByOperation.
  const byOperation = [...ops.entries()]
    .map(([operation, o]) => ({ operation, calls: o.calls, refunds: o.refunds, netUsd: microsToUsd(o.chargedMicros - o.refundedMicros) }))
    .sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation));

  const payerCount = (rows: { kind: string; payers: number }[], kind: string) => rows.find((p) => p.kind === kind)?.payers ?? 0;
  const margins = marginRows(groups, settings.ethUsdMicros);
  const margin = margins.total;
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days, bucket: range.bucket },
    previous: { start: range.prevStart.toISOString(), end: range.prevEnd.toISOString() },
    headline: headlineOf(presets[1]!, headline),
    totals: {
      ...figure(current!, previous!),
      chargedUsd: microsToUsd(current!.chargedMicros),
      refundedUsd: microsToUsd(current!.refundedMicros),
      paidCalls: current!.charges + current!.draws,
      previousPaidCalls: previous!.charges + previous!.draws,
      paidCallsChangePercent: percentChange(BigInt(current!.charges + current!.draws), BigInt(previous!.charges + previous!.draws)),
      // Charges: payments that moved money (per call, or a plan purchase).
      charges: current!.charges,
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
    revenueByOperation: revenueBy(groups, (g) => g.operationKey ?? "(unknown)").map(({ name, ...r }) => ({ operation: name, ...r })),
    revenueByRail: revenueBy(groups, (g) => g.rail ?? "(none)").map(({ name, ...r }) => ({ rail: name, ...r })),
    // Wallets and credentials are get-top-customers.ts (a query of their own: a page can ask for them beside this one).
    cardPayers: cardCustomers(groups),
    problems: {
      // Verified but not charged (the upstream failed), charged on chain but not settled, proofs refused.
      released: funnel.steps.released,
      failed: funnel.steps.failed,
      refused: funnel.steps.refused,
      // Refusals that are not failures: the agent was asked to slow down, or retried while its payment was still being
      // decided (it gets the answer once it is). Counted apart so "failed" means money that did not move.
      rateLimited: refusedWith(funnel.reasons, ["rate_limit_exceeded", "too_many_attempts"]),
      inProgress: refusedWith(funnel.reasons, ["payment_in_progress"]),
      reasons: funnel.reasons.slice(0, 5).map((r) => ({ ...r, ...funnel.explanations[`${r.step}:${r.code}`]! })),
    },
    conversion: { issued: funnel.stages.issued, settled: funnel.stages.settled, percent: funnel.stages.conversionPercent },
    // Paid calls and net money per transport (HTTP API, MCP tool calls), from the funnel's split.
    byTransport: funnel.byTransport.map(({ transport, calls, netUsd }) => ({ transport, calls, netUsd })),
    margin: {
      ...margin,
      rateSet: settings.ethUsdMicros !== null,
      // Card and other rails that pay no gas: their margin is known without a rate.
      withoutGas: {
        calls: margins.withoutGas.calls,
        netUsd: margins.withoutGas.netUsd,
        feesUsd: margins.withoutGas.feesUsd,
        marginUsd: margins.withoutGas.marginUsd,
      },
    },
  };
}

/** How many proofs were refused with one of these codes. */
function refusedWith(reasons: { step: string; code: string; count: number }[], codes: string[]): number {
  return reasons.filter((r) => r.step === "proof" && codes.includes(r.code)).reduce((n, r) => n + r.count, 0);
}
