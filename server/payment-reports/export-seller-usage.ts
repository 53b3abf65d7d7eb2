// The Usage page as CSV: the calls served on prepaid credit (draws) the page's filters select, in words and dollars and
// cents. A draw moves no money (the plan purchase did): the amount is the credit it spent. Streamed in keyset pages.
import { csvAmount, csvLine, csvTime } from "../lib/csv";
import type { PaymentFilterInput } from "./payment-filter";
import { STATUS_WORDS } from "../contracts/payment-words";
import { scopedFilter } from "./list-seller-payments";
import { findSellerPayments, type PaymentCursor } from "./seller-payments.queries";

const BATCH = 1000;

export const USAGE_CSV_COLUMNS = [
  "Served (UTC)",
  "Operation",
  "Agent credential",
  "Credit spent",
  "Currency",
  "Status",
  "Payment ID",
  "Path",
  "Query",
] as const;

export async function* exportSellerUsage(sellerId: string, input: PaymentFilterInput): AsyncGenerator<string> {
  const filter = scopedFilter({ ...input, usage: true });
  yield csvLine([...USAGE_CSV_COLUMNS]);
  let cursor: PaymentCursor | null = null;
  for (;;) {
    const rows = await findSellerPayments(sellerId, filter, { cursor, take: BATCH });
    if (rows.length === 0) return;
    yield rows
      .map((p) =>
        csvLine([csvTime(p.createdAt), p.operationKey, p.payer, csvAmount(p.amountMicros), p.currency, STATUS_WORDS[p.status], p.id, p.path, p.query]),
      )
      .join("");
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id, amountMicros: last.amountMicros };
  }
}
