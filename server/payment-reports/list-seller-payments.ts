// What the seller console reads about money: the seller's payments (filtered, paged), the totals above them, one
// payment's detail, and the refunds recorded. Every function takes the seller id from the session (sellerProcedure),
// never from the client. Amounts leave as six-decimal USD strings (like the catalog's prices), never as BigInt or floats.
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { microsToUsd } from "../lib/money";
import { paymentFilter, PAYMENT_SORTS, type PaymentFilterInput } from "./payment-filter";
import { PAYMENT_STATES, PAID_STATES } from "../payments/payment-state";
import { chainName } from "../chain/explorer-links";
import { RAILS } from "../payments/rails";
import { refundInput, refundsInPart } from "../payments/refund-payment";
import {
  countSellerPaymentsByStatus,
  findOperationKeys,
  findSellerPayments,
  sumSellerLedger,
  sumSellerPayments,
  type ConsolePaymentRow,
  type PaymentCursor,
  type ScopedPaymentFilter,
} from "./seller-payments.queries";

export const PAYMENTS_PAGE_SIZE = 25;

// Cursor on the wire: "<created_at ms>.<payment id>", the last row of the previous page; in the amount order its amount
// comes first: "<amount micros>~<created_at ms>.<payment id>".
export function encodePaymentCursor(c: PaymentCursor): string {
  const at = encodePageCursor(c.createdAt, c.id);
  return c.amountMicros === undefined ? at : `${c.amountMicros}~${at}`;
}

export function decodePaymentCursor(s: string): PaymentCursor {
  const m = /^(\d{1,19})~(.*)$/.exec(s);
  const { at, id } = decodePageCursor(m ? m[2]! : s);
  return m ? { createdAt: at, id, amountMicros: BigInt(m[1]!) } : { createdAt: at, id };
}

const implicitRails = RAILS.filter((r) => r.implicit).map((r) => r.name as string);

/** The filter as the queries take it: parsed, with the implicit rails whose holds are usage, not payments. */
export function scopedFilter(input: PaymentFilterInput): ScopedPaymentFilter {
  return { ...paymentFilter.parse(input), implicitRails };
}

/** A card payment's processor side, as the console shows it (brand and last four only: no card number exists here). */
export function cardView(c: ConsolePaymentRow["card"]) {
  if (!c) return null;
  return {
    processor: c.processor,
    flow: c.flow,
    brand: c.brand,
    last4: c.last4,
    processorPaymentId: c.processorPaymentId,
    refund: c.refundStatus ? { status: c.refundStatus, cause: c.refundCause, refundId: c.refundId } : null,
    payerEmail: c.payerEmail ?? null,
  };
}

/** One row as the console (and its CSV) shows it. */
export function paymentView(p: ConsolePaymentRow) {
  return {
    id: p.id,
    createdAt: p.createdAt.toISOString(),
    method: p.method,
    path: p.path,
    query: p.query,
    operation: p.operationKey,
    amountUsd: microsToUsd(p.amountMicros),
    currency: p.currency,
    rail: p.rail,
    /** http: an API call; mcp: a tool call at /mcp. */
    transport: p.transport,
    payer: p.payer,
    status: p.status,
    // Verified with a pending outbox row: the charge is decided and being submitted (or retried).
    settling: p.status === "verified" && p.settlementStatus === "pending",
    network: p.network,
    /** The network's name (Base), or its CAIP-2 id when it has none here. */
    chain: chainName(p.network),
    transaction: p.transaction,
    failureReason: p.failureReason,
    // Served before its charge was included on chain, and the charge then failed: delivered and never paid for.
    unpaidDelivery: p.status === "failed" && p.deliveredFirst,
    expiresAt: p.expiresAt.toISOString(),
    settledAt: p.settledAt?.toISOString() ?? null,
    // A refund (server/payments/refund-payment.ts) only of money actually taken, by a rail that refunds: a draw on prepaid
    // credit took none (its purchase is what a refund reverses). `refundInput`: what the rail asks of the seller.
    refundable: refundInput(p) !== null,
    refundInput: refundInput(p),
    refundTransaction: p.refundTransaction,
    refundedAt: p.refundedAt?.toISOString() ?? null,
    partiallyRefunded: p.refundedMicros > 0n && p.refundedMicros < p.amountMicros,
    refundsInPart: refundsInPart(p.rail),
    refundedUsd: microsToUsd(p.refundedMicros),
    remainingUsd: microsToUsd(p.amountMicros - p.refundedMicros),
    card: cardView(p.card),
  };
}

export type PaymentListInput = PaymentFilterInput & { cursor?: string | null; limit?: number };

export async function listSellerPayments(sellerId: string, q: PaymentListInput = {}) {
  const limit = q.limit ?? PAYMENTS_PAGE_SIZE;
  const filter = scopedFilter(q);
  // One row more than the page tells whether another page exists without a count query.
  const rows = await findSellerPayments(sellerId, filter, { cursor: q.cursor ? decodePaymentCursor(q.cursor) : null, take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    payments: page.map(paymentView),
    nextCursor:
      rows.length > limit && last
        ? encodePaymentCursor({ createdAt: last.createdAt, id: last.id, amountMicros: filter.sort === "amount" ? last.amountMicros : undefined })
        : null,
  };
}

/** Totals of the filtered set the list pages through: how many, for how much, paid and refunded. */
export async function summarizeSellerPayments(sellerId: string, q: PaymentFilterInput = {}) {
  const s = await sumSellerPayments(sellerId, scopedFilter(q));
  return {
    count: s.count,
    amountUsd: microsToUsd(s.amountMicros),
    paid: { count: s.paidCount, amountUsd: microsToUsd(s.paidMicros) },
    refunded: { count: s.refundedCount, amountUsd: microsToUsd(s.refundedMicros) },
  };
}

/** The filter menus: states, the registered rails, the catalog's operations. */
export async function getPaymentFilterOptions(sellerId: string) {
  return {
    states: [...PAYMENT_STATES],
    rails: RAILS.map((r) => r.name as string),
    /** Rails whose holds are usage (prepaid credit), listed on the Usage page rather than Payments. */
    usageRails: implicitRails,
    operations: await findOperationKeys(sellerId),
    sorts: [...PAYMENT_SORTS],
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
  const [groups, ledger] = await Promise.all([countSellerPaymentsByStatus(sellerId), sumSellerLedger(sellerId)]);
  const charges = ledger.filter((l) => l.kind === "charge");
  const refunds = ledger.filter((l) => l.kind === "refund");
  // Draws on prepaid credit: the money came in with the plan purchase (a charge); a draw is usage, not revenue.
  const draws = ledger.filter((l) => l.kind === "draw");
  const drawnMicros = draws.reduce((s, l) => s + l.amountMicros, 0n);
  const chargedMicros = charges.reduce((s, l) => s + l.amountMicros, 0n);
  const refundedMicros = refunds.reduce((s, l) => s + l.amountMicros, 0n);
  const paidMicros = groups.filter((g) => (PAID_STATES as readonly string[]).includes(g.status)).reduce((s, g) => s + g.amountMicros, 0n);
  // Per state, payments only (money that moved or was asked for); draws are counted apart, as usage.
  const money = groups.filter((g) => !implicitRails.includes(g.rail ?? ""));
  return {
    revenueUsd: microsToUsd(chargedMicros - refundedMicros),
    chargedUsd: microsToUsd(chargedMicros),
    refundedUsd: microsToUsd(refundedMicros),
    charges: charges.reduce((s, l) => s + l.entries, 0),
    refunds: refunds.reduce((s, l) => s + l.entries, 0),
    byStatus: PAYMENT_STATES.map((status) => {
      const of = money.filter((x) => x.status === status);
      return { status, count: of.reduce((s, g) => s + g.count, 0), amountUsd: microsToUsd(of.reduce((s, g) => s + g.amountMicros, 0n)) };
    }),
    usage: { draws: draws.reduce((s, l) => s + l.entries, 0), drawnUsd: microsToUsd(drawnMicros) },
    // Settled + consumed payments (draws included) should sum to the ledger's net plus what was drawn on prepaid
    // credit; a difference means a settlement, draw or refund was recorded on one side only, which the seller should
    // see rather than a silently wrong total.
    ledgerMatchesPayments: paidMicros === chargedMicros - refundedMicros + drawnMicros,
  };
}
