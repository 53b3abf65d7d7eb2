// The filtered Payments list as CSV, streamed: rows are read in keyset pages of EXPORT_BATCH (the same query and
// filter as the list) and each page is turned into text only when the reader asks for more, so memory stays one page
// deep whatever the row count (100,000 rows are tested). Columns are the table's, with full values (ids, payer,
// transactions), amounts as six-decimal USD strings, times in UTC (ISO 8601). Fields are quoted per RFC 4180.
import type { PaymentFilterInput } from "./payment-filter";
import { paymentView, scopedFilter } from "./list-seller-payments";
import { findSellerPayments, type PaymentCursor } from "./seller-payments.queries";

export const EXPORT_BATCH = 1000;

export const CSV_COLUMNS = [
  "payment_id",
  "created_at",
  "operation",
  "method",
  "path",
  "query",
  "amount_usd",
  "currency",
  "rail",
  "payer",
  "status",
  "network",
  "transaction",
  "settled_at",
  "failure_reason",
  "refund_transaction",
  "refunded_at",
] as const;

/** One CSV field: quoted when it holds a comma, quote, CR or LF; a leading =, +, - or @ is prefixed with ' (spreadsheet formula injection). */
export function csvField(v: string | null | undefined): string {
  if (v === null || v === undefined) return "";
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

type Row = ReturnType<typeof paymentView>;

function csvLine(p: Row): string {
  const status = p.settling ? "verified (settling)" : p.status;
  return (
    [
      p.id,
      p.createdAt,
      p.operation,
      p.method,
      p.path,
      p.query,
      p.amountUsd,
      p.currency,
      p.rail,
      p.payer,
      status,
      p.network,
      p.transaction,
      p.settledAt,
      p.failureReason,
      p.refundTransaction,
      p.refundedAt,
    ]
      .map(csvField)
      .join(",") + "\r\n"
  );
}

/** The export as text chunks: the header, then one chunk per page of rows. Pull-driven: nothing is read ahead. */
export async function* exportSellerPayments(
  sellerId: string,
  input: PaymentFilterInput,
  opts: { batch?: number; onBatch?: (rows: number) => void } = {},
): AsyncGenerator<string> {
  const filter = scopedFilter(input);
  const batch = opts.batch ?? EXPORT_BATCH;
  yield CSV_COLUMNS.join(",") + "\r\n";
  let cursor: PaymentCursor | null = null;
  for (;;) {
    const rows = await findSellerPayments(sellerId, filter, { cursor, take: batch });
    opts.onBatch?.(rows.length);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine(paymentView(r))).join("");
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
