// The Refunds page as CSV, with its filters (status, rail, days): every refund's row in words, the payer's email and
// card where the card checkout recorded them, the card processor's refund id or the wallet refund's transaction, the
// payment's whole amount and whether this refund was part of it; amounts in dollars and cents with a currency column. Streamed in keyset pages read only as the client reads.
import { csvAmount, csvLine, csvTime } from "../lib/csv";
import { refundReason } from "./list-seller-refunds";
import { cardWords, railWords, refundStatusWords } from "../contracts/payment-words";
import { refundFilter, type RefundFilter } from "./refund-filter";
import { findRefunds, type RefundRow } from "./refunds.queries";
import { chainName } from "../chain/explorer-links";
import type { PaymentCursor } from "./seller-payments.queries";
import type { z } from "zod";

export const REFUNDS_EXPORT_BATCH = 1000;

export const REFUND_CSV_COLUMNS = [
  "Refunded (UTC)",
  "Amount",
  "Currency",
  "Status",
  "Reason",
  "Payment ID",
  "Paid (UTC)",
  "Operation",
  "Paid with",
  "Payer",
  "Payer email",
  "Card",
  "Card refund ID",
  "Network",
  "Refund transaction",
  "Recorded by",
  "Payment amount",
  "Refund kind",
] as const;

function refundLine(r: RefundRow): string {
  return csvLine([
    csvTime(r.createdAt),
    csvAmount(r.amountMicros),
    r.currency,
    refundStatusWords(r.status),
    refundReason(r),
    r.paymentId,
    csvTime(r.paidAt),
    r.operationKey,
    railWords(r.rail),
    r.rail === "card" ? null : r.payer,
    r.payerEmail,
    cardWords({ brand: r.cardBrand, last4: r.cardLast4 }),
    r.processorRefundId,
    r.transaction ? chainName(r.network) : null,
    r.transaction,
    r.recordedBy,
    csvAmount(r.paymentMicros),
    // A card payment may be refunded in parts: this refund returned part of the payment, or all of it at once.
    r.amountMicros < r.paymentMicros ? "Partial" : "Full",
  ]);
}

export async function* exportSellerRefunds(sellerId: string, input: z.input<typeof refundFilter>, opts: { batch?: number } = {}): AsyncGenerator<string> {
  const filter: RefundFilter = refundFilter.parse(input);
  const batch = opts.batch ?? REFUNDS_EXPORT_BATCH;
  yield csvLine([...REFUND_CSV_COLUMNS]);
  let cursor: PaymentCursor | null = null;
  for (;;) {
    const rows = await findRefunds(sellerId, filter, { cursor, take: batch });
    if (rows.length === 0) return;
    yield rows.map(refundLine).join("");
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

export function refundsFileName(input: z.input<typeof refundFilter>, now: Date = new Date()): string {
  return `refunds-${input.from ?? "start"}-to-${input.to ?? now.toISOString().slice(0, 10)}.csv`;
}
