// The Refunds page: the refunds recorded at a seller, filtered (status, rail, days), with their status, reason, the card
// processor's refund id for card refunds, the totals of the filtered set, and the same rows as a CSV. Amounts leave as
// six-decimal USD strings on the wire; the CSV writes dollars and cents (lib/csv-money.ts).
import { decodePaymentCursor, encodePaymentCursor } from "./list-seller-payments";
import { microsToUsd } from "../lib/money";
import { explorerLinksFor } from "../settings/explorer-links-for";
import { chainName } from "../chain/explorer-links";
import { findRefunds, sumRefunds, type RefundRow } from "./refunds.queries";
import { REFUND_STATUSES, refundFilter, type RefundFilter } from "./refund-filter";
import type { z } from "zod";

export const REFUNDS_PAGE_SIZE = 25;

/** Why a refund was made, in a seller's words: the reason they typed, else what made it. */
export function refundReason(r: Pick<RefundRow, "sellerReason" | "cause" | "rail">): string {
  if (r.sellerReason) return r.sellerReason;
  if (r.cause === "delivery_failed") return "Automatic: the data source failed after the card was charged";
  if (r.cause === "undelivered") return "Automatic: the answer was not delivered in time";
  return "Refunded by the seller (no reason given)";
}

export function refundView(r: RefundRow, link: (network: string | null, tx: string | null) => string | null) {
  return {
    id: r.id,
    paymentId: r.paymentId,
    amountUsd: microsToUsd(r.amountMicros),
    paymentAmountUsd: microsToUsd(r.paymentMicros),
    currency: r.currency,
    operation: r.operationKey,
    rail: r.rail,
    payer: r.payer,
    payerEmail: r.payerEmail,
    card: r.cardLast4 ? { brand: r.cardBrand, last4: r.cardLast4 } : null,
    network: r.network,
    chain: chainName(r.network),
    transaction: r.transaction,
    transactionUrl: link(r.network, r.transaction),
    logIndex: r.logIndex,
    status: r.status as (typeof REFUND_STATUSES)[number],
    reason: refundReason(r),
    processorRefundId: r.processorRefundId,
    refundError: r.refundError,
    recordedBy: r.recordedBy,
    paidAt: r.paidAt.toISOString(),
    refundedAt: r.createdAt.toISOString(),
  };
}

export type RefundListInput = z.input<typeof refundFilter> & { cursor?: string | null; limit?: number };

/** The refunds recorded at this seller, newest first, 25 a page, filtered. */
export async function listSellerRefunds(sellerId: string, q: RefundListInput = {}) {
  const limit = q.limit ?? REFUNDS_PAGE_SIZE;
  const filter: RefundFilter = refundFilter.parse({ status: q.status, rail: q.rail, from: q.from, to: q.to });
  const [rows, links] = await Promise.all([
    findRefunds(sellerId, filter, { cursor: q.cursor ? decodePaymentCursor(q.cursor) : null, take: limit + 1 }),
    explorerLinksFor(sellerId),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    refunds: page.map((r) => refundView(r, links)),
    nextCursor: rows.length > limit && last ? encodePaymentCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

/** Totals of the filtered refunds: all of them, and per status (succeeded, pending, failed). */
export async function summarizeSellerRefunds(sellerId: string, input: z.input<typeof refundFilter> = {}) {
  const groups = await sumRefunds(sellerId, refundFilter.parse(input));
  const sum = (of: typeof groups) => ({
    count: of.reduce((s, g) => s + g.count, 0),
    amountUsd: microsToUsd(of.reduce((s, g) => s + g.amountMicros, 0n)),
  });
  return { ...sum(groups), byStatus: REFUND_STATUSES.map((status) => ({ status, ...sum(groups.filter((g) => g.status === status)) })) };
}
