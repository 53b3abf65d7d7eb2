// The filtered Payments list as CSV, streamed: rows are read in keyset pages of EXPORT_BATCH (the same query and
// filter as the list) and each page is turned into text only when the reader asks for more, so memory stays one page
// deep whatever the row count (100,000 rows are tested). Columns are the table's in words, with full values (ids, payer,
// transactions), the payer's email and card where the card checkout recorded them, the card processor's refund id, the
// amount refunded and each refund (a card payment may be refunded in parts);
// amounts in dollars and cents with a currency column, times in UTC (server/lib/csv.ts).
import type { PaymentFilterInput } from "./payment-filter";
import { paymentView, scopedFilter } from "./list-seller-payments";
import { findSellerPayments, type ConsolePaymentRow, type PaymentCursor } from "./seller-payments.queries";
import { csvAmount, csvLine, csvTime } from "../lib/csv";
import { cardWords, railWords, stateLabel } from "../contracts/payment-words";

export { csvField } from "../lib/csv";

export const EXPORT_BATCH = 1000;

/** The file's header, in words; docs/console.md says what each column holds. */
export const CSV_COLUMNS = [
  "Payment ID",
  "Created (UTC)",
  "Operation",
  "Method",
  "Path",
  "Query",
  "Amount",
  "Currency",
  "Paid with",
  "Payer",
  "Payer email",
  "Card",
  "Status",
  "Network",
  "Transaction",
  "Settled (UTC)",
  "Failure reason",
  "Refund ID",
  "Refund transaction",
  "Refunded (UTC)",
  "Amount refunded",
  "Refunds",
] as const;

/** Each refund in the order made: "0.20 at 2026-03-02 12:00:00 (re_...)", the wallet refund's transaction in its place; "; " between. */
function refundsText(row: ConsolePaymentRow): string {
  return row.refunds
    .map((r) => {
      const ref = r.processorRefundId ?? r.transaction;
      return `${csvAmount(r.amountMicros)} at ${csvTime(r.at)}${ref ? ` (${ref})` : ""}`;
    })
    .join("; ");
}

function paymentLine(row: ConsolePaymentRow): string {
  const p = paymentView(row);
  return csvLine([
    p.id,
    csvTime(p.createdAt),
    p.operation,
    p.method,
    p.path,
    p.query,
    csvAmount(row.amountMicros),
    p.currency,
    railWords(p.rail),
    p.payer,
    row.card?.payerEmail,
    cardWords(row.card),
    stateLabel({ status: p.status, settling: p.settling, partiallyRefunded: p.status !== "refunded" && row.refundedMicros > 0n }).label,
    p.chain,
    p.transaction,
    csvTime(p.settledAt),
    p.failureReason,
    row.card?.refundId,
    p.refundTransaction,
    csvTime(p.refundedAt),
    csvAmount(row.refundedMicros),
    refundsText(row),
  ]);
}

/** The export as text chunks: the header, then one chunk per page of rows. Pull-driven: nothing is read ahead. */
export async function* exportSellerPayments(
  sellerId: string,
  input: PaymentFilterInput,
  opts: { batch?: number; onBatch?: (rows: number) => void } = {},
): AsyncGenerator<string> {
  const filter = scopedFilter(input);
  const batch = opts.batch ?? EXPORT_BATCH;
  yield csvLine([...CSV_COLUMNS]);
  let cursor: PaymentCursor | null = null;
  for (;;) {
    const rows = await findSellerPayments(sellerId, filter, { cursor, take: batch });
    opts.onBatch?.(rows.length);
    if (rows.length === 0) return;
    yield rows.map(paymentLine).join("");
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id, amountMicros: last.amountMicros };
  }
}

/** The export's file name: payments-<from>-<to>.csv (or -all). */
export function exportFileName(input: PaymentFilterInput, now: Date = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return `payments-${input.from ?? "start"}-to-${input.to ?? day}.csv`;
}
