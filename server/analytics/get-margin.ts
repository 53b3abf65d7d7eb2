// Margin per operation and rail: what the calls earned (the ledger: charges minus refunds) against what serving them
// cost the seller where that is known, so a seller sees whether $0.01 calls pay.
//  - gas: the facilitator wallet's gas for each settlement transaction, from its receipt (ledger charge rows carry it),
//    shown in ETH; in USD only at the rate the seller set in Settings, labelled with that rate and when it was set.
//    There is no price feed offline and no number is invented: without a rate, rails that pay gas get no USD cost and
//    no margin. Rails that pay no gas (card) need no rate: their margin is revenue minus the fees.
//  - provider fees in micro-USD (card processing, as the processor reports them on the charge).
// Charges whose cost is not known (a remote facilitator paid the gas, a settlement recovered after a crash, a fee the
// processor did not report) are counted, so the page says how many of the calls the cost covers.
import { microsToUsd, weiToEth, weiToMicros } from "../lib/money";
import { findSellerSettings } from "../settings/settings.queries";
import { RAILS } from "../payments/rails";
import { groupLedger, type LedgerGroup } from "./analytics.queries";
import { findRolledThrough } from "./rollup.queries";
import { percentOf, resolveRange, type RangeInput } from "../lib/date-range";

type Acc = {
  calls: number;
  /** Charges on a rail that pays gas to settle (a wallet rail). */
  gasCalls: number;
  refunds: number;
  chargedMicros: bigint;
  refundedMicros: bigint;
  gasWei: bigint;
  gasKnown: number;
  feeMicros: bigint;
  feeKnown: number;
};

/** Whether settling on this rail costs gas (a wallet rail settles on chain); other rails' costs are fees. */
const paysGas = (rail: string | null) => RAILS.find((r) => r.name === rail)?.payerKind === "wallet";

const zeroAcc = (): Acc => ({ calls: 0, gasCalls: 0, refunds: 0, chargedMicros: 0n, refundedMicros: 0n, gasWei: 0n, gasKnown: 0, feeMicros: 0n, feeKnown: 0 });

/** Adds `part`'s counts to `into` (a charge's, a refund's, a row's). */
function addAcc(into: Acc, part: Partial<Acc>): void {
  for (const k of Object.keys(into) as (keyof Acc)[]) {
    const v = part[k];
    if (typeof v === "bigint") (into[k] as bigint) += v;
    else if (typeof v === "number") (into[k] as number) += v;
  }
}

/** Margin rows per operation and rail, and their total, from the ledger's per-operation groups and the seller's rate. */
export function marginRows(groups: LedgerGroup[], rate: bigint | null) {
  const rows = new Map<string, Acc & { operation: string; rail: string | null }>();
  for (const g of groups) {
    if (g.grp !== "operation" || (g.kind !== "charge" && g.kind !== "refund")) continue;
    const operation = g.operationKey ?? "(unknown)";
    const key = `${operation}\u0000${g.rail ?? ""}`;
    const r = rows.get(key) ?? { operation, rail: g.rail, ...zeroAcc() };
    addAcc(
      r,
      g.kind === "charge"
        ? {
            calls: g.entries,
            gasCalls: paysGas(g.rail) ? g.entries : 0,
            chargedMicros: g.micros,
            gasWei: g.gasWei,
            gasKnown: g.gasKnown,
            feeMicros: g.feeMicros,
            feeKnown: g.feeKnown,
          }
        : { refunds: g.entries, refundedMicros: g.micros },
    );
    rows.set(key, r);
  }

  const view = (a: Acc) => {
    const netMicros = a.chargedMicros - a.refundedMicros;
    // Gas in USD needs the seller's rate, unless none of these charges paid gas (then it is zero, known).
    const gasMicros = a.gasCalls === 0 && a.gasWei === 0n ? 0n : rate === null ? null : weiToMicros(a.gasWei, rate);
    // A cost is complete when every gas-paying charge's gas is known and every other charge's fee is.
    const costKnownForAll = a.gasKnown >= a.gasCalls && a.feeKnown >= a.calls - a.gasCalls;
    const costMicros = gasMicros === null ? null : gasMicros + a.feeMicros;
    const marginMicros = costMicros === null ? null : netMicros - costMicros;
    return {
      calls: a.calls,
      refunds: a.refunds,
      netUsd: microsToUsd(netMicros),
      revenuePerCallUsd: a.calls ? microsToUsd(netMicros / BigInt(a.calls)) : null,
      gasEth: weiToEth(a.gasWei),
      gasKnown: a.gasKnown,
      /** Charges that paid gas (wallet rails); the others' cost is fees alone. */
      gasCalls: a.gasCalls,
      gasPerCallEth: a.gasKnown ? weiToEth(a.gasWei / BigInt(a.gasKnown)) : null,
      gasUsd: gasMicros === null ? null : microsToUsd(gasMicros),
      gasPerCallUsd: gasMicros === null || a.gasKnown === 0 || rate === null ? null : microsToUsd(weiToMicros(a.gasWei / BigInt(a.gasKnown), rate)),
      feesUsd: microsToUsd(a.feeMicros),
      feeKnown: a.feeKnown,
      costKnownForAll,
      /** Why there is no USD margin: gas paid in ETH with no rate set; null when there is one. */
      marginUnknownBecause: marginMicros === null ? ("no_eth_rate" as const) : null,
      marginUsd: marginMicros === null ? null : microsToUsd(marginMicros),
      // Margin as a share of net revenue, one decimal; null without a USD cost or without revenue.
      marginPercent: marginMicros === null || netMicros <= 0n ? null : percentOf(marginMicros, netMicros),
    };
  };

  const list = [...rows.values()].sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation) || (a.rail ?? "").localeCompare(b.rail ?? ""));
  const total = zeroAcc();
  for (const r of list) addAcc(total, r);
  // The part whose margin needs no rate (rails that pay no gas: card), known even when the total's is not.
  const noGas = zeroAcc();
  for (const r of list.filter((x) => x.gasCalls === 0)) addAcc(noGas, { ...r, gasWei: 0n, gasKnown: 0 });
  return { rows: list.map((r) => ({ operation: r.operation, rail: r.rail, ...view(r) })), total: view(total), withoutGas: view(noGas) };
}

export async function getMargin(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const through = await findRolledThrough(sellerId);
  const [groups, settings] = await Promise.all([groupLedger(sellerId, range, "day", through), findSellerSettings(sellerId)]);
  const rate = settings.ethUsdMicros;
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    rate: rate === null ? null : { ethUsd: microsToUsd(rate), setAt: settings.ethUsdSetAt?.toISOString() ?? null },
    ...marginRows(groups, rate),
  };
}
