// batch-settlement over MCP, through the x402 MCP binding as it is (server/mcp): the payment-required tool result lists
// the scheme beside exact, the official client's deposit and vouchers go in `_meta["x402/payment"]`, and the answer's
// `_meta["x402/payment-response"]` is what the client checks before its next voucher. The x402 MCP transport's client
// logic is a few lines over the official x402Client (the registry has no @x402/mcp); its batch-settlement scheme and
// hooks are @x402/evm's, unmodified.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentPayload } from "@x402/core/types";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as mcpRoute from "../../../../app/mcp/route";
import { db } from "../../../db/client";
import { startGatewayStack, stopGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../../../testing/gateway";
import { paymentRequiredOf, X402_PAYMENT_META_KEY } from "../../../testing/x402-mcp-client";
import { flushVoucherCaptures } from "./capture-queue";
import { officialBatchClient, type OfficialBatchClient } from "./official-client.test-kit";

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
const SECRET = "batch-mcp-upstream-secret-0123456";
const ARGS = { ticker: "AAPL", from: "2024-09-02", to: "2024-09-30" };
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

beforeAll(async () => {
  ({ chain, upstream, seller } = await startGatewayStack(SECRET));
}, 60_000);
afterAll(() => stopGatewayStack({ chain, upstream }));

async function connect(): Promise<Client> {
  const client = new Client({ name: "batch-mcp-test", version: "1.0.0" });
  const mcpFetch: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", seller.host);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${seller.host}/mcp`), { fetch: mcpFetch }));
  return client;
}

/** One paid tool call as x402's MCP transport makes it, the answer's payment response handed to the client's hooks. */
async function paidToolCall(mcp: Client, c: OfficialBatchClient): Promise<{ result: CallToolResult; payload: PaymentPayload }> {
  const first = (await mcp.callTool({ name: "aggregates", arguments: ARGS })) as CallToolResult;
  const required = paymentRequiredOf(first);
  expect(required?.accepts.map((a) => a.scheme)).toContain("batch-settlement");
  const payload = await c.client.createPaymentPayload(required!);
  const result = (await mcp.callTool({ name: "aggregates", arguments: ARGS, _meta: { [X402_PAYMENT_META_KEY]: payload } })) as CallToolResult;
  const settled = result._meta?.["x402/payment-response"];
  // What an HTTP client reads from PAYMENT-RESPONSE, read from the result's _meta: the client's own hooks update its channel.
  await c.http.processPaymentResult(
    payload,
    (name) => (name === "PAYMENT-RESPONSE" && settled ? Buffer.from(JSON.stringify(settled)).toString("base64") : null),
    200,
  );
  return { result, payload };
}

it("pays a tool call with a deposit, then the next ones with vouchers, each answer carrying the channel's state", async () => {
  const mcp = await connect();
  const c = officialBatchClient(9, { rpcUrl: chain.rpcUrl });
  const types: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const { result, payload } = await paidToolCall(mcp, c);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    types.push((payload.payload as { type: string }).type);
    expect(result._meta?.["x402/payment-response"]).toMatchObject({
      success: true,
      extra: { chargedAmount: "20000", channelState: { chargedCumulativeAmount: (20_000 * i).toString() } },
    });
  }
  expect(types).toEqual(["deposit", "voucher", "voucher"]);
  await flushVoucherCaptures();
  const payments = await db.payment.findMany({ where: { sellerId: seller.sellerId, rail: "x402-batch" } });
  expect(payments.map((p) => [p.status, p.transport])).toEqual([
    ["consumed", "mcp"],
    ["consumed", "mcp"],
    ["consumed", "mcp"],
  ]);
});
