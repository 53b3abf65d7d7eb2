// The console's payment filters, one schema for the Payments list (tRPC) and its CSV export (a URL): state, rail,
// operation, payer, a search, a range of UTC days of creation, and the order. Unpaid 402 challenges are left out unless
// asked for (the toggle, or `challenged` among the states). Payments are money that moved: draws on prepaid credit
// (an implicit rail's holds) are usage, listed with `usage` (the Usage page), or by naming their rail.
import { z } from "zod";
import { TRANSPORTS } from "../payments/paid-call";
import { PAYMENT_STATES } from "../payments/payment-state";

/**
 * The search text's limit: a whole signed payment id fits (challenge-id.ts `MAX_CHALLENGE_ID_LENGTH`, which this
 * module cannot import: the console's client components import it, and that one imports node:crypto).
 */
export const SEARCH_MAX_LENGTH = 4096;

/** The list's orders: newest first (the default), oldest first, largest amount first. */
export const PAYMENT_SORTS = ["newest", "oldest", "amount"] as const;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

export const paymentFilter = z.object({
  status: z.array(z.enum(PAYMENT_STATES)).max(PAYMENT_STATES.length).optional(),
  rail: z.string().min(1).max(32).optional(),
  operation: z.string().min(1).max(64).optional(),
  /** HTTP calls or MCP tool calls alone. */
  transport: z.enum(TRANSPORTS).optional(),
  // A wallet address (or whatever the rail records as payer), matched exactly, case-insensitively.
  payer: z.string().min(1).max(128).optional(),
  /**
   * A payment id, wallet, transaction, card processor id (pi_...) or reference (payref_...), agent credential (agt_...)
   * or a person's email. Long enough for a whole signed payment id (challenge-id.ts).
   */
  q: z.string().trim().min(1).max(SEARCH_MAX_LENGTH).optional(),
  from: isoDay.optional(),
  to: isoDay.optional(),
  includeChallenged: z.boolean().default(false),
  /** Draws on prepaid credit instead of payments (ignored when a rail is named). */
  usage: z.boolean().default(false),
  sort: z.enum(PAYMENT_SORTS).default("newest"),
});
export type PaymentFilterInput = z.input<typeof paymentFilter>;
export type PaymentFilter = z.output<typeof paymentFilter>;

/** The same filter from a URL's query (?status=settled,consumed&rail=x402&operation=...&transport=mcp&payer=...&q=...&from=...&to=...&challenged=1&sort=...). */
export function paymentFilterFromSearch(params: URLSearchParams): PaymentFilterInput {
  const get = (k: string) => params.get(k) || undefined;
  const status = get("status");
  return {
    status: status ? (status.split(",").filter(Boolean) as PaymentFilter["status"]) : undefined,
    rail: get("rail"),
    operation: get("operation"),
    transport: get("transport") as PaymentFilter["transport"] | undefined,
    payer: get("payer"),
    q: get("q"),
    from: get("from"),
    to: get("to"),
    includeChallenged: params.get("challenged") === "1",
    usage: params.get("usage") === "1",
    sort: (get("sort") as PaymentFilter["sort"] | undefined) ?? undefined,
  };
}
