// The Customers page as CSV, for a range: every paying wallet (spend net of refunds, from the ledger and its daily
// rollups) and every card payer (by the email given at checkout, or by card), in words and dollars and cents. Streamed:
// wallets are read a page of EXPORT_PAGE at a time, as the client reads.
import { groupPayers } from "../analytics/analytics.queries";
import { resolveRange, type RangeInput } from "../lib/date-range";
import { findRolledThrough } from "../analytics/rollup.queries";
import { csvAmount, csvLine, csvTime } from "../lib/csv";
import { railWords } from "../contracts/payment-words";
import { findCardPayers } from "../billing/customers.queries";

const EXPORT_PAGE = 1000;
/** Card payers are grouped in one statement; a storefront with more than this many in a range gets the largest. */
const CARD_PAYERS_MAX = 100_000;

export const CUSTOMER_CSV_COLUMNS = [
  "Customer",
  "Type",
  "Paid with",
  "Payments",
  "Refunds",
  "Spend (net)",
  "Refunded",
  "Currency",
  "First payment (UTC)",
  "Last payment (UTC)",
] as const;

export async function* exportCustomers(sellerId: string, input: RangeInput, now: Date = new Date()): AsyncGenerator<string> {
  const range = resolveRange(input, now);
  yield csvLine([...CUSTOMER_CSV_COLUMNS]);
  const through = await findRolledThrough(sellerId);
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const { rows } = await groupPayers(sellerId, range, through, { limit: EXPORT_PAGE, offset });
    if (rows.length) {
      yield rows
        .map((r) =>
          csvLine([
            r.payer,
            r.payer.startsWith("agt_") ? "Agent credential" : "Wallet",
            r.rails.map(railWords).join("; "),
            r.calls,
            r.refunds,
            csvAmount(r.chargedMicros - r.refundedMicros),
            csvAmount(r.refundedMicros),
            "USD",
            csvTime(r.firstAt),
            csvTime(r.lastAt),
          ]),
        )
        .join("");
    }
    if (rows.length < EXPORT_PAGE) break;
  }
  const cards = await findCardPayers(sellerId, range.start, range.end, CARD_PAYERS_MAX);
  yield cards
    .map((c) =>
      csvLine([
        c.email ?? c.cards.join("; "),
        c.email ? "Card payer" : "Card payer (no email given)",
        "Card",
        c.payments,
        c.refunds,
        csvAmount(c.paidMicros),
        csvAmount(c.refundedMicros),
        "USD",
        "",
        csvTime(c.lastAt),
      ]),
    )
    .join("");
}

export function customersFileName(input: RangeInput, now: Date = new Date()): string {
  const r = resolveRange(input, now);
  return `customers-${r.from}-to-${r.to}.csv`;
}
