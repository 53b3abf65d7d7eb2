// The call every gateway bench measures: a quarter of AAPL's daily aggregates, through the gateway, and the same
// request to the built-in market upstream directly, signed with the seller's secret as the gateway signs it.
import { signUpstreamRequest } from "../../../server/upstream-auth/signature";
import type { BenchContext } from "../types";

export const AGGREGATES_PATH = "/aggregates/AAPL";
export const AGGREGATES_QUERY = "from=2017-01-03&to=2017-03-31";

export function aggregatesCalls(ctx: BenchContext): { gatewayUrl: string; direct: () => Promise<Response> } {
  const secret = ctx.env.MARKET_UPSTREAM_SECRET!;
  const directUrl = `${ctx.baseUrl}/upstream/market/v1${AGGREGATES_PATH}?${AGGREGATES_QUERY}`;
  return {
    gatewayUrl: `${ctx.baseUrl}/api/v1${AGGREGATES_PATH}?${AGGREGATES_QUERY}`,
    direct: () => {
      const u = new URL(directUrl);
      return fetch(u, { headers: signUpstreamRequest(secret, { method: "GET", path: u.pathname, query: u.searchParams }) });
    },
  };
}
