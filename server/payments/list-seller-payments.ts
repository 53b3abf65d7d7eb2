// What the seller console reads about money: the seller's payments (paged) and the totals above them.
// Every function takes the seller id from the session (sellerProcedure), never from the client.
// Amounts leave as six-decimal USD strings (like the catalog's prices), never as BigInt or floats.
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import { countSellerPaymentsByStatus, findSellerPayments, sumSellerLedger, type PaymentCursor } from "./seller-payments.queries";
import { PAYMENT_STATES } from "./payment-state";

export const PAYMENTS_PAGE_SIZE = 25;

// Cursor on the wire: "<created_at ms>.<payment id>", the last row of the previous page.
const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_]{1,64})$/;

export function encodePaymentCursor(c: PaymentCursor): string {
  return `${c.createdAt.getTime()}.${c.id}`;
}

export function decodePaymentCursor(s: string): PaymentCursor {
  const m = CURSOR.exec(s);
  if (!m)
    throw new AppError("invalid_request", {
      reason: "invalid_parameter",
      detail: "cursor must be the nextCursor of a previous page",
      extra: { parameter: "cursor" },
    });
  return { createdAt: new Date(Number(m[1])), id: m[2]! };
}

export async function listSellerPayments(sellerId: string, q: { cursor?: string | null; includeChallenged?: boolean; limit?: number } = {}) {
  const limit = q.limit ?? PAYMENTS_PAGE_SIZE;
  // One row more than the page tells whether another page exists without a count query.
  const rows = await findSellerPayments(sellerId, {
    cursor: q.cursor ? decodePaymentCursor(q.cursor) : null,
    take: limit + 1,
    includeChallenged: q.includeChallenged ?? false,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    payments: page.map((p) => ({
      id: p.id,
      createdAt: p.createdAt.toISOString(),
      method: p.method,
      path: p.path,
      query: p.query,
      operation: p.operationKey,
      amountUsd: microsToUsd(p.amountMicros),
      rail: p.rail,
      payer: p.payer,
      status: p.status,
      // Verified with a pending outbox row: the charge is decided and being submitted (or retried).
      settling: p.status === "verified" && p.settlement?.status === "pending",
      transaction: p.transaction,
      failureReason: p.failureReason,
      // Only money actually taken can be refunded: recorded after an on-chain transfer back (wallet rails,
      // server/payments/refund.ts), or one click for a card (server/payments/card/refund-card-payment.ts).
      refundable: p.status === "settled" || p.status === "consumed",
      refundTransaction: p.ledgerEntries[0]?.transaction ?? null,
      card: p.card
        ? {
            processor: p.card.processor,
            flow: p.card.flow,
            brand: p.card.cardBrand,
            last4: p.card.cardLast4,
            processorPaymentId: p.card.processorPaymentId,
            refund: p.card.refundStatus ? { status: p.card.refundStatus, cause: p.card.refundCause, refundId: p.card.refundId } : null,
          }
        : null,
    })),
    nextCursor: rows.length > limit && last ? encodePaymentCursor(last) : null,
  };
}

/**
 * Totals above the payment list. Revenue comes from the ledger: a charge row is written in the same statement
 * that moves a payment to settled (recordSettlementSuccess) and is never changed, and a refund is a row of its
 * own, so the ledger is the accounting record of money actually taken. Payment rows are working state (a
 * settled payment becomes consumed, refunded later; unpaid challenges are deleted when they expire), so
 * their per-state sums are shown as counts and cross-checked against the ledger, not used as revenue.
 */
export async function getSellerPaymentTotals(sellerId: string) {
  const [byStatus, ledger] = await Promise.all([countSellerPaymentsByStatus(sellerId), sumSellerLedger(sellerId)]);
  const charges = ledger.filter((l) => l.kind === "charge");
  const refunds = ledger.filter((l) => l.kind === "refund");
  const chargedMicros = charges.reduce((s, l) => s + l.amountMicros, 0n);
  const refundedMicros = refunds.reduce((s, l) => s + l.amountMicros, 0n);
  const paidMicros = byStatus.filter((g) => g.status === "settled" || g.status === "consumed").reduce((s, g) => s + g.amountMicros, 0n);
  return {
    revenueUsd: microsToUsd(chargedMicros - refundedMicros),
    chargedUsd: microsToUsd(chargedMicros),
    refundedUsd: microsToUsd(refundedMicros),
    charges: charges.reduce((s, l) => s + l.entries, 0),
    byStatus: PAYMENT_STATES.map((status) => {
      const g = byStatus.find((x) => x.status === status);
      return { status, count: g?.count ?? 0, amountUsd: microsToUsd(g?.amountMicros ?? 0n) };
    }),
    // Settled + consumed payments should sum to the ledger's net; a difference means a settlement or refund
    // was recorded on one side only, which the seller should see rather than a silently wrong total.
    ledgerMatchesPayments: paidMicros === chargedMicros - refundedMicros,
  };
}
