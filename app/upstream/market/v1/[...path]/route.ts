import { methods } from "@/server/http/route";
import { handleMarketUpstream } from "@/server/market/upstream/handle-market-upstream";

// GET /upstream/market/v1/{operation...} - the market data upstream (gateway-signed requests only)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: (ctx) => handleMarketUpstream(ctx.req) });
