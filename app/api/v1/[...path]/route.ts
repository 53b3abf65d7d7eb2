import { handleGatewayRequest } from "@/server/gateway/handle-gateway-request";
import { registerLocalUpstream } from "@/server/gateway/proxy-upstream";
import { methods } from "@/server/http/route";
import * as marketUpstream from "../../../upstream/market/v1/[...path]/route";

export const dynamic = "force-dynamic";

// The built-in market data upstream lives in this app: the gateway calls its route handler in process (still signed
// and verified) instead of making a second HTTP request to itself.
registerLocalUpstream("/upstream/market/v1", (req) => marketUpstream.GET(req, { params: Promise.resolve({}) }));

// ANY /api/v1/{...path} - the paid gateway: 402 challenge, x402 payment, proxy to the upstream, settlement
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: handleGatewayRequest,
  POST: handleGatewayRequest,
  PUT: handleGatewayRequest,
  PATCH: handleGatewayRequest,
  DELETE: handleGatewayRequest,
});
