import { handleGatewayRequest } from "@/server/gateway/handle-gateway-request";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// ANY /api/v1/{...path} - the paid gateway: 402 challenge, x402 payment, proxy to the upstream, settlement
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: handleGatewayRequest,
  POST: handleGatewayRequest,
  PUT: handleGatewayRequest,
  PATCH: handleGatewayRequest,
  DELETE: handleGatewayRequest,
});
