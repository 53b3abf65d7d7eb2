// ANY /api/v1/{...path}: a data call. Priced from the seller's catalog, paid on any rail, delivered by the service's
// upstream, rendered as HTTP; everything between is the one pipeline every paid entry point runs (run-paid-call.ts).
// Timed as a whole, so Server-Timing can tell the chain's and PostgreSQL's waits from the gateway's own work.
import type { RouteContext } from "../http/route";
import { timeRequest } from "../lib/request-timing";
import { priceDataCall } from "./paid-call";
import { renderOutcome } from "./render-outcome";
import { runPaidCall } from "./run-paid-call";

export async function handleGatewayRequest(ctx: RouteContext): Promise<Response> {
  const { result } = await timeRequest(() =>
    runPaidCall({ proofs: ctx.req.headers, client: ctx.clientAddress, price: () => priceDataCall(ctx), render: renderOutcome }),
  );
  return result;
}
