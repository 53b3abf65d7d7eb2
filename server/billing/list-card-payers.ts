// The Customers page's card payers: the people who paid hosted card checkouts in a range, by the email they gave for
// their receipt (or by card when they gave none), with what they paid net of refunds. Card payers have no wallet, so
// "paying wallets" cannot list them.
import { resolveRange, type RangeInput } from "../lib/date-range";
import { microsToUsd } from "../lib/money";
import { findCardPayers } from "./customers.queries";

export const CARD_PAYERS_LIMIT = 100;

export async function listCardPayers(sellerId: string, input: RangeInput = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const rows = await findCardPayers(sellerId, range.start, range.end, CARD_PAYERS_LIMIT);
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    payers: rows.map((r) => ({
      email: r.email,
      cards: r.cards,
      payments: r.payments,
      refunds: r.refunds,
      paidUsd: microsToUsd(r.paidMicros),
      refundedUsd: microsToUsd(r.refundedMicros),
      lastAt: r.lastAt?.toISOString() ?? null,
    })),
  };
}
