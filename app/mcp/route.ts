import { registerLocalUpstream } from "@/server/gateway/proxy-upstream";
import { inProcess, methods } from "@/server/http/route";
import { answerValidatedCall, handleMarketUpstream, MARKET_UPSTREAM_PREFIX } from "@/server/market/upstream/handle-market-upstream";
import { handleMcpRequest } from "@/server/mcp/handle-mcp-request";

export const dynamic = "force-dynamic";

// Tool calls reach the built-in market data upstream in process, as the HTTP gateway's do (app/api/v1/[...path]).
registerLocalUpstream(MARKET_UPSTREAM_PREFIX, inProcess(handleMarketUpstream), answerValidatedCall);

// POST /mcp - the storefront as an MCP server (Streamable HTTP, stateless, JSON answers): free tools and one paid tool per data operation
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ POST: handleMcpRequest });
