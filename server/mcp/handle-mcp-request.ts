// POST /mcp: the storefront as an MCP server over Streamable HTTP, with the official SDK.
//
// Stateless (no Mcp-Session-Id): every POST builds the server for the storefront its Host names, from the catalog as
// it is now, answers that one JSON-RPC message with plain JSON (no SSE stream), and is done. Instances share nothing
// but PostgreSQL (ARCHITECTURE.md), so a session held in one instance's memory would break behind a load balancer, and
// nothing here needs one: tools take no server-initiated messages, and a price change is in the next tools/list.
//
// The low-level `Server` rather than `McpServer`: the tools are data (the catalog's, per request), and payment
// bindings need JSON-RPC errors (-32042, -32043, -32602) that McpServer's tool wrapper would turn into tool results.
// The agent's bearer is MCP authorization's: on every HTTP request, checked here once; an invalid one is a 401 with
// the RFC 9728 pointer, as MCP clients expect.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Catalog } from "../catalog/catalog";
import { listTools, mppPaymentCapability, type DataTool } from "../discovery/mcp-tools";
import { AppError, isAppError, invalidParameter } from "../errors";
import { boundedRequest } from "../http/parse";
import type { RouteContext } from "../http/route";

/** A JSON-RPC message of this server (a tool call's arguments and its payment `_meta`): far below this. */
const MCP_BODY_LIMIT = 256 * 1024;
import { authenticateAgent, bearerChallenge, type AgentPrincipal } from "../identity/require-agent";
import { callFreeTool, isFreeTool } from "./free-tools";
import { readToolCallProof } from "./payment/read-tool-call-proof";
import { renderToolError, type ToolAnswer } from "./payment/render-tool-outcome";
import { servePaidToolCall } from "./serve-paid-tool-call";

type ChallengeAs = "result" | "error";

/** `?payment-required=error`: MPP's JSON-RPC error -32042 for the unpaid answer, for clients of the MPP draft alone. */
function challengeAsOf(url: URL): ChallengeAs {
  const v = url.searchParams.get("payment-required");
  if (v === null || v === "result") return "result";
  if (v === "error") return "error";
  throw invalidParameter("payment-required", "payment-required must be result (default: one tool result for x402 and MPP) or error (MPP's JSON-RPC -32042)");
}

const INSTRUCTIONS =
  "Market and economic data sold per call. Free tools: guide (which tools fit a goal), search_operations, prices_and_plans, entitlements. " +
  "Every other tool is a priced data operation: its description states the price. Called without payment it answers with the payment " +
  'requirements (x402 in the structured content, MPP challenges in _meta["org.paymentauth/payment-required"]); retry the same call with ' +
  'the proof in params._meta ("org.paymentauth/credential" for MPP, "x402/payment" for x402), or connect with Authorization: Bearer ' +
  "<agent access token> to pay from plan credit.";

/** A JSON-RPC error the SDK sends as given (its McpError would prefix the message with the code). */
function jsonRpcError(a: Extract<ToolAnswer, { type: "error" }>): Error {
  return Object.assign(new Error(a.message), { code: a.code, data: a.data });
}

function buildServer(ctx: RouteContext, catalog: Catalog, agent: AgentPrincipal | null, challengeAs: ChallengeAs): Server {
  const tools = listTools(catalog);
  const dataTools = new Map<string, DataTool>(tools.data.map((t) => [t.name, t]));
  const server = new Server(
    { name: catalog.seller.name, title: `${catalog.seller.name} (market data, paid per call)`, version: String(catalog.seller.catalogVersion) },
    { capabilities: { tools: {}, experimental: { payment: mppPaymentCapability(catalog.seller.payToAddress) } }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.free, ...tools.data].map(({ name, title, description, inputSchema, annotations, _meta }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
      ...(_meta ? { _meta } : {}),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args, _meta } = request.params;
    let answer: ToolAnswer;
    try {
      if (isFreeTool(name)) answer = { type: "result", result: await callFreeTool(name, args, { catalog, origin: ctx.origin, agent }) };
      else {
        const tool = dataTools.get(name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
        answer = await servePaidToolCall(ctx, tool, args, readToolCallProof(_meta, ctx.req.headers), { challengeAs });
      }
    } catch (e) {
      if (e instanceof McpError) throw e;
      if (isAppError(e)) answer = renderToolError(e);
      else {
        // Details go to the log, never to the client (as route.ts does for HTTP).
        console.error(`[${ctx.requestId}] MCP tools/call ${name} failed:`, e);
        answer = renderToolError(
          new AppError("internal_error", { detail: "unexpected error; quote request_id when reporting it", extra: { request_id: ctx.requestId } }),
        );
      }
    }
    if (answer.type === "error") throw jsonRpcError(answer);
    return answer.result;
  });
  return server;
}

export async function handleMcpRequest(ctx: RouteContext): Promise<Response> {
  const catalog = await ctx.catalog();
  const challengeAs = challengeAsOf(ctx.url);
  const auth = await authenticateAgent(ctx.req, catalog.seller.id);
  if (auth.type === "invalid")
    throw new AppError("invalid_token", { reason: auth.reason, detail: auth.detail, headers: bearerChallenge(ctx.origin, "invalid_token") });
  const server = buildServer(ctx, catalog, auth.type === "agent" ? auth.agent : null, challengeAs);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // The transport reads the body itself: it gets it read within a bound first.
    const response = await transport.handleRequest(await boundedRequest(ctx.req, MCP_BODY_LIMIT));
    // The answer is computed (JSON mode), but a body read later must not be cut by closing first.
    const body = response.body ? await response.arrayBuffer() : null;
    const headers = new Headers(response.headers);
    headers.set("cache-control", "no-store");
    return new Response(body, { status: response.status, headers });
  } finally {
    await server.close();
  }
}
