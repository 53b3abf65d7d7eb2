// A payment's refunds as GET /payments/{id} and its events show them (`refunds`, `amount_refunded`, `refund`): one
// entry per ledger refund row, in the order they were made. A card payment may be refunded in parts (like Stripe's
// charge: `amount_refunded` below `amount` while it stays paid); a wallet payment once, in full.
import { microsToUsd } from "../lib/money";

export type RefundEntry = { amountMicros: bigint; transaction: string | null; logIndex: number | null; createdAt: Date };

/** One ledger refund in the API's words. */
export function refundEntryView(e: RefundEntry) {
  return { amount: microsToUsd(e.amountMicros), transaction: e.transaction, log_index: e.logIndex, refunded_at: e.createdAt.toISOString() };
}

/**
 * The refund fields of a payment: `refund` once all is back (all refunded, several partial card refunds included:
 * the transfer and time of the last), `amount_refunded` so far, and every refund.
 */
export function refundFields(p: { status: string; refundedMicros: bigint }, entries: readonly RefundEntry[]) {
  const last = entries[entries.length - 1];
  return {
    refund: p.status === "refunded" && last ? { ...refundEntryView(last), amount: microsToUsd(p.refundedMicros) } : null,
    amount_refunded: microsToUsd(p.refundedMicros),
    refunds: entries.map(refundEntryView),
  };
}
