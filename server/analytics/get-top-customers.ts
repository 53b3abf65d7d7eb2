// The overview's top customers for a range: the wallets with the most net spend and the agent credentials that bought
// the most prepaid credit. A query of its own (not part of get-overview): ranking every wallet of a busy storefront
// reads every payer-day of the range, which the overview's other figures do not need.
import { microsToUsd } from "../lib/money";
import { findTopCredentialsByPurchases, findTopWallets } from "./customers.queries";
import { resolveRange, type DayRange, type RangeInput } from "../lib/date-range";
import { railPayerKinds } from "./get-overview";
import { findRolledThrough } from "./rollup.queries";

/** How many wallets and credentials the overview's top customers list. */
export const TOP_CUSTOMERS = 5;

/** The biggest wallets (net spend) and agent credentials (credit bought) of the range. */
async function topCustomers(sellerId: string, range: DayRange, through: string | null) {
  const walletRails = railPayerKinds()
    .filter((k) => k.kind === "wallet")
    .map((k) => k.rail);
  const [wallets, credentials] = await Promise.all([
    findTopWallets(sellerId, range, through, walletRails, TOP_CUSTOMERS),
    findTopCredentialsByPurchases(sellerId, range, TOP_CUSTOMERS),
  ]);
  return {
    wallets: wallets.map((w) => ({
      kind: "wallet" as const,
      id: w.payer,
      payments: w.charges,
      netUsd: microsToUsd(w.chargedMicros - w.refundedMicros),
      lastAt: w.lastAt,
    })),
    credentials: credentials.map((c) => ({
      kind: "credential" as const,
      id: c.credentialId,
      payments: c.purchases,
      netUsd: microsToUsd(c.chargedMicros - c.refundedMicros),
      lastAt: c.lastAt,
    })),
  };
}

export async function getTopCustomers(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const through = await findRolledThrough(sellerId);
  return { range: { preset: range.preset, from: range.from, to: range.to, days: range.days }, ...(await topCustomers(sellerId, range, through)) };
}
