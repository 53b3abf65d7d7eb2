// Margin per operation and rail: what the calls earned (the ledger: charges minus refunds) against what serving them
// cost the seller where that is known, so a seller sees whether $0.01 calls pay.
//  - gas: the facilitator wallet's gas for each settlement transaction, from its receipt (ledger charge rows carry it),
//    shown in ETH; in USD only at the rate the seller set in Settings, labelled with that rate and when it was set.
//    There is no price feed offline and no number is invented: without a rate, no USD cost and no margin are shown.
//  - provider fees in micro-USD (card processing, as the processor reports them on the charge).
// Charges whose cost is not known (a remote facilitator paid the gas, a settlement recovered after a crash) are
// counted, so the page says how many of the calls the cost covers.
import { microsToUsd, weiToEth, weiToMicros } from "../lib/money";
import { findSellerSettings } from "../settings/settings.queries";
import { groupLedger } from "./analytics.queries";
import { findRolledThrough } from "./rollup.queries";
import { resolveRange, type RangeInput } from "./date-range";

type Acc = {
  calls: number;
  refunds: number;
  chargedMicros: bigint;
  refundedMicros: bigint;
  gasWei: bigint;
  gasKnown: number;
  feeMicros: bigint;
  feeKnown: number;
};

export async function getMargin(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const through = await findRolledThrough(sellerId);
  const [groups, settings] = await Promise.all([groupLedger(sellerId, range, "day", through), findSellerSettings(sellerId)]);
  const rate = settings.ethUsdMicros;

  const rows = new Map<string, Acc & { operation: string; rail: string | null }>();
  for (const g of groups) {
    if (g.grp !== "operation") continue;
    const operation = g.operationKey ?? "(unknown)";
    const key = `${operation}\u0000${g.rail ?? ""}`;
    const r = rows.get(key) ?? {
      operation,
      rail: g.rail,
      calls: 0,
      refunds: 0,
      chargedMicros: 0n,
      refundedMicros: 0n,
      gasWei: 0n,
      gasKnown: 0,
      feeMicros: 0n,
      feeKnown: 0,
    };
    if (g.kind === "charge") {
      r.calls += g.entries;
      r.chargedMicros += g.micros;
      r.gasWei += g.gasWei;
      r.gasKnown += g.gasKnown;
      r.feeMicros += g.feeMicros;
      r.feeKnown += g.feeKnown;
    } else if (g.kind === "refund") {
      r.refunds += g.entries;
      r.refundedMicros += g.micros;
    }
    rows.set(key, r);
  }

  const view = (a: Acc) => {
    const netMicros = a.chargedMicros - a.refundedMicros;
    const gasMicros = rate === null ? null : weiToMicros(a.gasWei, rate);
    // A cost is complete when every charge's gas is known; fees only exist on rails that charge them.
    const costKnownForAll = a.gasKnown === a.calls;
    const costMicros = gasMicros === null ? null : gasMicros + a.feeMicros;
    const marginMicros = costMicros === null ? null : netMicros - costMicros;
    return {
      calls: a.calls,
      refunds: a.refunds,
      netUsd: microsToUsd(netMicros),
      revenuePerCallUsd: a.calls ? microsToUsd(netMicros / BigInt(a.calls)) : null,
      gasEth: weiToEth(a.gasWei),
      gasKnown: a.gasKnown,
      gasPerCallEth: a.gasKnown ? weiToEth(a.gasWei / BigInt(a.gasKnown)) : null,
      gasUsd: gasMicros === null ? null : microsToUsd(gasMicros),
      gasPerCallUsd: gasMicros === null || a.gasKnown === 0 ? null : microsToUsd(weiToMicros(a.gasWei / BigInt(a.gasKnown), rate!)),
      feesUsd: microsToUsd(a.feeMicros),
      feeKnown: a.feeKnown,
      costKnownForAll,
      marginUsd: marginMicros === null ? null : microsToUsd(marginMicros),
      // Margin as a share of net revenue, one decimal; null without a USD cost or without revenue.
      marginPercent: marginMicros === null || netMicros <= 0n ? null : percentOf(marginMicros, netMicros),
    };
  };

  const list = [...rows.values()].sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation) || (a.rail ?? "").localeCompare(b.rail ?? ""));
  const total: Acc = { calls: 0, refunds: 0, chargedMicros: 0n, refundedMicros: 0n, gasWei: 0n, gasKnown: 0, feeMicros: 0n, feeKnown: 0 };
  for (const r of list) {
    total.calls += r.calls;
    total.refunds += r.refunds;
    total.chargedMicros += r.chargedMicros;
    total.refundedMicros += r.refundedMicros;
    total.gasWei += r.gasWei;
    total.gasKnown += r.gasKnown;
    total.feeMicros += r.feeMicros;
    total.feeKnown += r.feeKnown;
  }
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    rate: rate === null ? null : { ethUsd: microsToUsd(rate), setAt: settings.ethUsdSetAt?.toISOString() ?? null },
    rows: list.map((r) => ({ operation: r.operation, rail: r.rail, ...view(r) })),
    total: view(total),
  };
}

/** part / whole in percent, one decimal, rounded half away from zero (integer arithmetic). */
function percentOf(part: bigint, whole: bigint): string {
  const q = (part * 2000n) / whole;
  const tenths = q >= 0n ? (q + 1n) / 2n : (q - 1n) / 2n;
  const abs = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? "-" : ""}${abs / 10n}.${abs % 10n}`;
}
