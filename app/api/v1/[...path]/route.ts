import { handleGatewayRequest } from "@/server/gateway/handle-gateway-request";
import { registerLocalUpstream } from "@/server/gateway/proxy-upstream";
import { inProcess, methods } from "@/server/http/route";
import { handleMarketUpstream, MARKET_UPSTREAM_PREFIX } from "@/server/market/upstream/handle-market-upstream";

export const dynamic = "force-dynamic";

// The built-in market data upstream lives in this app: the gateway calls its handler in process (still signed and
// verified, its errors answered as over HTTP) instead of making a second HTTP request to itself.
registerLocalUpstream(MARKET_UPSTREAM_PREFIX, inProcess(handleMarketUpstream));

// ANY /api/v1/{...path} - the paid gateway: 402 challenge, x402 payment, proxy to the upstream, settlement. Each path
// parameter is checked by its operation's contract (a NUL in a ticker is the 400 naming `ticker`).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods(
  {
    GET: handleGatewayRequest,
    POST: handleGatewayRequest,
    PUT: handleGatewayRequest,
    PATCH: handleGatewayRequest,
    DELETE: handleGatewayRequest,
  },
  { pathParamsByContract: true },
);
