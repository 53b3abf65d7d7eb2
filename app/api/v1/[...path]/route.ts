import { handleGatewayRequest } from "@/server/gateway/handle-gateway-request";
import { registerLocalUpstream } from "@/server/gateway/proxy-upstream";
import { inProcess, methods } from "@/server/http/route";
import { answerValidatedCall, handleMarketUpstream, MARKET_UPSTREAM_PREFIX } from "@/server/market/upstream/handle-market-upstream";

export const dynamic = "force-dynamic";

// The built-in market data upstream lives in this app: the gateway calls it in process (a call it validated, taken as
// validated by the storefront holding the upstream's secret; anything else signed and verified; errors answered as
// over HTTP) instead of making a second HTTP request to itself.
registerLocalUpstream(MARKET_UPSTREAM_PREFIX, inProcess(handleMarketUpstream), answerValidatedCall);

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
