// The console's payment filters, one schema for the Payments list (tRPC) and its CSV export (a URL): state, rail,
// operation, payer and a range of UTC days of creation. Unpaid 402 challenges are left out unless asked for (the
// toggle, or `challenged` among the states).
import { z } from "zod";
import { PAYMENT_STATES } from "./payment-state";

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

export const paymentFilter = z.object({
  status: z.array(z.enum(PAYMENT_STATES)).max(PAYMENT_STATES.length).optional(),
  rail: z.string().min(1).max(32).optional(),
  operation: z.string().min(1).max(64).optional(),
  // A wallet address (or whatever the rail records as payer), matched exactly, case-insensitively.
  payer: z.string().min(1).max(128).optional(),
  from: isoDay.optional(),
  to: isoDay.optional(),
  includeChallenged: z.boolean().default(false),
});
export type PaymentFilterInput = z.input<typeof paymentFilter>;
export type PaymentFilter = z.output<typeof paymentFilter>;

/** The same filter from a URL's query (?status=settled,consumed&rail=x402&operation=...&payer=...&from=...&to=...&challenged=1). */
export function paymentFilterFromSearch(params: URLSearchParams): PaymentFilterInput {
  const get = (k: string) => params.get(k) || undefined;
  const status = get("status");
  return {
    status: status ? (status.split(",").filter(Boolean) as PaymentFilter["status"]) : undefined,
    rail: get("rail"),
    operation: get("operation"),
    payer: get("payer"),
    from: get("from"),
    to: get("to"),
    includeChallenged: params.get("challenged") === "1",
  };
}
