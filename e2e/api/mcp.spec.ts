// The built app as an MCP server, reached with the official MCP SDK client over Streamable HTTP: it connects, lists
// the tools with their prices, answers a free tool, and answers a paid tool called without payment with the
// payment-required result that mppx's McpClient recognises (and x402's MCP clients: its PaymentRequired check).
import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPaymentRequired } from "@x402/core/schemas";
import { evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { privateKeyToAccount } from "viem/accounts";

const PAY_TO = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
// anvil default account 6 (a demo payer wallet; public test key). It signs nothing here: the payment is declined.
const PAYER = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";

async function connect(baseURL: string): Promise<Client> {
  const client = new Client({ name: "e2e-mcp", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`)));
  return client;
}

test("the MCP SDK client connects to /mcp and lists the free tools and one priced tool per data operation", async ({ baseURL }) => {
  const client = await connect(baseURL!);
  expect(client.getServerVersion()?.name).toBeTruthy();
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const free of ["guide", "search_operations", "prices_and_plans", "entitlements"]) expect(byName.get(free)?._meta?.["x-payment-info"]).toBeUndefined();
  expect(byName.get("aggregates")?._meta?.["x-payment-info"]).toMatchObject({ priceUsd: "0.020000", meter: "aggregates" });
  expect(byName.get("backtest")?.description).toContain("Costs 0.500000 USD per call");
  expect(byName.get("aggregates")?.inputSchema).toMatchObject({ type: "object", required: ["ticker"] });
  await client.close();
});

test("a free tool answers over MCP: the guide", async ({ baseURL }) => {
  const client = await connect(baseURL!);
  const res = (await client.callTool({ name: "guide", arguments: { goal: "daily stock prices" } })) as CallToolResult;
  expect(res.isError).toBeFalsy();
  const guide = res.structuredContent as { recommendations: { operation: string; price_usd: string }[] };
  expect(guide.recommendations[0]).toMatchObject({ operation: "aggregates", price_usd: "0.020000" });
  await client.close();
});

test("a paid tool called without payment answers payment required in both bindings; mppx's McpClient recognises it", async ({ baseURL }) => {
  const client = await connect(baseURL!);
  const res = (await client.callTool({ name: "aggregates", arguments: { ticker: "AAPL", from: "2017-02-01", to: "2017-02-28" } })) as CallToolResult;
  expect(res.isError).toBe(true);
  expect(isPaymentRequired(res.structuredContent)).toBe(true);
  expect((res.structuredContent as { accepts: { amount: string; payTo: string }[] }).accepts[0]).toMatchObject({ amount: "20000", payTo: PAY_TO });
  const mpp = res._meta?.["org.paymentauth/payment-required"] as { challenges: { method: string; realm: string }[] };
  expect(mpp.challenges[0]).toMatchObject({ method: "evm", realm: new URL(baseURL!).hostname });

  const offered: unknown[] = [];
  McpClient.wrap(client, {
    methods: [evm.charge({ account: privateKeyToAccount(PAYER), currencies: [evm.assets.base.USDC] })],
    onPaymentRequired: async (challenge) => {
      offered.push(challenge);
      return false;
    },
  });
  await expect(client.callTool({ name: "avg_interest_rates", arguments: {} })).rejects.toThrow("Payment declined.");
  expect(offered).toEqual([
    expect.objectContaining({ method: "evm", intent: "charge", request: expect.objectContaining({ amount: "10000", recipient: PAY_TO }) }),
  ]);
  await client.close();
});

test("/mcp speaks JSON over plain HTTP too: a 405 for GET (stateless, no SSE stream) and JSON-RPC for POST", async ({ request }) => {
  expect((await request.get("/mcp")).status()).toBe(405);
  const res = await request.post("/mcp", {
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    },
  });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  expect(res.headers()["mcp-session-id"]).toBeUndefined();
  expect(await res.json()).toMatchObject({
    jsonrpc: "2.0",
    id: 1,
    result: { capabilities: { tools: {}, experimental: { payment: { methods: { evm: { intents: ["charge"] } } } } } },
  });
});
