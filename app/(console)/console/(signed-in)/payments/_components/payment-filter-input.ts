// The Payments (and Usage) filters as the URL holds them (?status=a,b&rail=&operation=&transport=&payer=&q=&from=&to=&challenged=1&sort=),
// read the same way by the server's prefetch and the browser; the CSV export reads the same URL.
import { isPaymentStatus, type PaymentStatus } from "@/server/contracts/payment-words";

const SORTS = ["newest", "oldest", "amount"] as const;

export function paymentFilterFrom(params: URLSearchParams, opts: { usage?: boolean } = {}) {
  const status = params.get("status")?.split(",").filter(isPaymentStatus);
  const sort = params.get("sort");
  const transport = params.get("transport");
  return {
    status: status?.length ? (status as PaymentStatus[]) : undefined,
    rail: params.get("rail") || undefined,
    operation: params.get("operation") || undefined,
    transport: transport === "http" || transport === "mcp" ? (transport as "http" | "mcp") : undefined,
    payer: params.get("payer") || undefined,
    q: params.get("q") || undefined,
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
    includeChallenged: params.get("challenged") === "1",
    usage: opts.usage ?? false,
    sort: (SORTS as readonly string[]).includes(sort ?? "") ? (sort as (typeof SORTS)[number]) : undefined,
  };
}

/** The filter without its order: the totals of the filtered set do not depend on it. */
export function summaryInput(filter: ReturnType<typeof paymentFilterFrom>) {
  const rest = { ...filter };
  delete rest.sort;
  return rest;
}
