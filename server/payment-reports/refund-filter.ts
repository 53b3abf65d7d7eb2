// The Refunds page's filters, one schema for the list and totals (tRPC) and its CSV export (a URL): the refund's status,
// the rail, and a range of UTC days of when the refund was recorded.
import { z } from "zod";

/** succeeded: the money is back with the payer (a wallet transfer verified on chain, or the card processor confirmed it);
 * pending: the card processor has not confirmed it yet (the reconciler retries); failed: the processor refused it. */
export const REFUND_STATUSES = ["succeeded", "pending", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

export const refundFilter = z
  .object({
    status: z.enum(REFUND_STATUSES).optional(),
    rail: z.string().min(1).max(32).optional(),
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "the range ends before it starts: pick a `to` day on or after `from`", path: ["to"] });
export type RefundFilter = z.output<typeof refundFilter>;

/** The same filter from a URL's query (?status=pending&rail=card&from=2026-01-01&to=2026-01-31). */
export function refundFilterFromSearch(params: URLSearchParams): z.input<typeof refundFilter> {
  const get = (k: string) => params.get(k) || undefined;
  return { status: get("status") as RefundStatus | undefined, rail: get("rail"), from: get("from"), to: get("to") };
}
