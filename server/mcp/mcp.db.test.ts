// The MCP server in process, against real PostgreSQL: the official SDK client (Client + StreamableHTTPClientTransport,
// its fetch routed to the /mcp route handler) lists the tools, calls free tools, and calls a paid tool unpaid, and the
// answer is what mppx's McpClient and x402's MCP client recognise as payment required.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPaymentRequired } from "@x402/core/schemas";
import { evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { OPERATIONS } from "../market/operations";
import { findPayment } from "../payments/payments.queries";
import { registerAnonymous, routedStore } from "../testing/identity-harness";

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
const PAY_TO = anvilAddress(10);
let host: string;

/** fetch for the MCP SDK's transport: the /mcp route handler in process, with the Host header a real request has. */
function mcpFetch(extra: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", new URL(req.url).host);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
}

async function connect(opts: { query?: string; headers?: Record<string, string> } = {}): Promise<Client> {
  const client = new Client({ name: "storefront-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp${opts.query ?? ""}`), { fetch: mcpFetch(opts.headers) }));
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<CallToolResult>;

beforeAll(async () => {
  const tag = `mcp-${randomBytes(4).toString("hex")}`;
  host = `${tag}.mcp.test`;
  await seedMarketSeller(db, {
    slug: tag,
    name: `Store ${tag}`,
    hosts: [host],
    email: `${tag}@seller.test`,
    password: "pw-12345678",
    payTo: PAY_TO,
    signingSecret: "s".repeat(32),
  });
});

describe("MCP over Streamable HTTP", () => {
  it("lists the free tools and one tool per data operation, priced from the catalog, with the operation's parameters as input schema", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.experimental?.payment).toMatchObject({ methods: { evm: { intents: ["charge"] } } });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 4)).toEqual(["guide", "search_operations", "prices_and_plans", "entitlements"]);
    // One tool per operation of the registry (the shelf grows by one folder and one line; this follows).
    expect(names.slice(4).sort()).toEqual(OPERATIONS.map((o) => o.key).sort());
    const aggregates = tools.find((t) => t.name === "aggregates")!;
    expect(aggregates.inputSchema.required).toEqual(["ticker"]);
    expect(aggregates.inputSchema.properties).toMatchObject({ ticker: { type: "string" }, limit: { type: "integer", maximum: 50000, default: 5000 } });
    expect(aggregates._meta?.["x-payment-info"]).toMatchObject({
      priceUsd: "0.020000",
      amountMicros: "20000",
      meter: "aggregates",
      protocols: ["x402", "mpp", "credits"],
    });
    expect(aggregates.description).toContain("Costs 0.020000 USD per call on meter `aggregates`");
    expect(tools.find((t) => t.name === "backtest")!._meta?.["x-payment-info"]).toMatchObject({
      priceUsd: "0.500000",
      protocols: ["x402", "mpp", "card", "credits"],
    });
    expect(tools.every((t) => t.outputSchema === undefined)).toBe(true);
  });

  it("answers the free tools: the guide, search, prices and plans; entitlements needs the bearer", async () => {
    const client = await connect();
    const guide = await call(client, "guide", { goal: "treasury interest rates" });
    expect(guide.isError).toBeFalsy();
    expect((guide.structuredContent as { recommendations: { operation: string }[] }).recommendations[0]!.operation).toBe("avg_interest_rates");
    expect(JSON.parse((guide.content[0] as { text: string }).text)).toEqual(guide.structuredContent);

    const search = await call(client, "search_operations", { query: "backtest strategy" });
    expect((search.structuredContent as { results: { tool: string; price_usd: string }[] }).results[0]).toMatchObject({
      tool: "backtest",
      price_usd: "0.500000",
    });

    const prices = await call(client, "prices_and_plans");
    expect(prices.structuredContent).toMatchObject({ currency: "USD", payment: { protocols: ["x402", "x402-batch", "mpp", "card", "credits"] } });

    const anonymous = await call(client, "entitlements");
    expect(anonymous.isError).toBe(true);
    expect(anonymous.structuredContent).toMatchObject({ error: "bearer_required" });
    expect(anonymous._meta?.["svc-http-status"]).toBe(401);

    const bad = await call(client, "guide", {});
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ error: "invalid_request", parameter: "goal" });
  });

  it("reads the agent's bearer from the MCP requests (entitlements), and answers an invalid one with HTTP 401 and the RFC 9728 pointer", async () => {
    const { token, credentialId } = await registerAnonymous(routedStore(host));
    const client = await connect({ headers: { authorization: `Bearer ${token}` } });
    const ent = await call(client, "entitlements");
    expect(ent.isError).toBeFalsy();
    expect(ent.structuredContent).toMatchObject({ agent: { id: credentialId }, plans: [] });

    const res = await mcpFetch({ authorization: "Bearer not-a-token" })(`http://${host}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="http://${host}/.well-known/oauth-protected-resource"`);
    expect(await res.json()).toMatchObject({ error: "invalid_token" });
  });

  it("answers a paid tool called without payment with one challenge in both bindings: x402's requirements and MPP's challenges", async () => {
    const client = await connect();
    const res = await call(client, "aggregates", { ticker: "AAPL", from: "2017-02-01", to: "2017-02-28" });
    expect(res.isError).toBe(true);
    // x402 (specs/transports-v2/mcp.md): PaymentRequired as structured content and as content[0]'s JSON text.
    const pr = res.structuredContent as Record<string, any>;
    expect(isPaymentRequired(pr)).toBe(true);
    expect(pr).toMatchObject({ x402Version: 2, error: "payment_required", payment: { amount: "0.020000", operation: "aggregates" } });
    expect(pr.accepts[0]).toMatchObject({ scheme: "exact", network: "eip155:8453", amount: "20000", payTo: PAY_TO });
    expect(pr.resource.url).toBe(`http://${host}/api/v1/aggregates/AAPL?from=2017-02-01&to=2017-02-28`);
    expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(pr);
    // MPP: the challenges mppx's McpClient reads from a tool result.
    const mpp = res._meta?.["org.paymentauth/payment-required"] as { httpStatus: number; challenges: Record<string, any>[] };
    expect(mpp.httpStatus).toBe(402);
    expect(mpp.challenges).toHaveLength(1);
    expect(mpp.challenges[0]).toMatchObject({ method: "evm", intent: "charge", realm: host, request: { amount: "20000", recipient: PAY_TO } });
    // One payment, as for an HTTP 402. Issue 22 (stateless challenges): its id carries the terms and no row is written.
    const id = res._meta?.["svc-payment-id"] as string;
    expect(pr.payment.id).toBe(id);
    expect(await db.payment.findUnique({ where: { id } })).toBeNull();
    const sellerId = (await db.sellerHost.findUniqueOrThrow({ where: { hostname: host } })).sellerId;
    expect(await findPayment(sellerId, id)).toMatchObject({ status: "challenged", amountMicros: 20_000n, operationKey: "aggregates", transport: "mcp" });
  });

  it("is recognised by mppx's McpClient as payment required (it offers the evm challenge to pay)", async () => {
    const client = await connect();
    const offered: { method: string; request: Record<string, unknown> }[] = [];
    McpClient.wrap(client, {
      methods: [evm.charge({ account: privateKeyToAccount(anvilPrivateKey(4) as `0x${string}`), currencies: [evm.assets.base.USDC] })],
      onPaymentRequired: async (challenge) => {
        offered.push(challenge as never);
        return false;
      },
    });
    await expect(client.callTool({ name: "avg_interest_rates", arguments: {} })).rejects.toThrow("Payment declined.");
    expect(offered).toHaveLength(1);
    expect(offered[0]).toMatchObject({ method: "evm", request: { amount: "10000" } });
  });

  it("answers MPP's JSON-RPC error -32042 instead when asked (?payment-required=error)", async () => {
    const client = await connect({ query: "?payment-required=error" });
    const err = await call(client, "backtest", { ticker: "AAPL" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32042);
    const data = (err as McpError).data as { httpStatus: number; challenges: { method: string }[]; x402: unknown };
    expect(data.httpStatus).toBe(402);
    // $0.50: the card method's stripe challenge too, where the card processor offers it.
    expect(data.challenges.map((c) => c.method)).toContain("evm");
    expect(isPaymentRequired(data.x402)).toBe(true);
  });

  it("refuses bad arguments before any charge, naming the parameter", async () => {
    const client = await connect();
    const before = await db.payment.count();
    for (const [args, parameter] of [
      [{ ticker: "AAPL", limit: 50001 }, "limit"],
      [{ ticker: "aapl" }, "ticker"],
      [{}, "ticker"],
      [{ ticker: "AAPL", colour: "red" }, "colour"],
      [{ ticker: "AAPL", limit: { deep: 1 } }, "limit"],
    ] as const) {
      const res = await call(client, "aggregates", args);
      expect(res.isError, JSON.stringify(args)).toBe(true);
      expect(res.structuredContent).toMatchObject({ error: "invalid_request", parameter });
      expect(res._meta?.["svc-http-status"]).toBe(400);
    }
    expect(await db.payment.count()).toBe(before);
  });

  it("answers a malformed _meta proof in its binding's terms, never as an internal error", async () => {
    const client = await connect();
    // MPP: invalid params (-32602), as mppx's server transport answers a credential it cannot read.
    for (const credential of ["Payment abc", 42, { challenge: "x", payload: {} }, { challenge: { id: "x" }, payload: {} }]) {
      const err = await call(client, "aggregates", { ticker: "AAPL" }, { "org.paymentauth/credential": credential }).catch((e: unknown) => e);
      expect(err, JSON.stringify(credential)).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).data).toMatchObject({ error: "payment_required", reason: "malformed_credential" });
    }
    // x402: fresh requirements carrying the reason (x402's "payment invalid"), whether the value is no object at all or
    // an object the x402 rail cannot read.
    const notObject = await call(client, "aggregates", { ticker: "AAPL" }, { "x402/payment": "eyJ4NDAyVmVyc2lvbiI6Mn0=" });
    expect(notObject.isError).toBe(true);
    expect(notObject.structuredContent).toMatchObject({ error: "payment_required", reason: "malformed_payment" });
    expect(isPaymentRequired(notObject.structuredContent)).toBe(true);
    const wrong = await call(client, "aggregates", { ticker: "AAPL" }, { "x402/payment": { x402Version: 2, payload: {} } });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ error: "payment_required", reason: "malformed_payment", x402Version: 2 });
    expect(isPaymentRequired(wrong.structuredContent)).toBe(true);
    // Proofs of two bindings at once (each readable as its binding's object): refused as over HTTP, nothing charged.
    const unpaid = await call(client, "aggregates", { ticker: "AAPL" });
    const [challenge] = (unpaid._meta?.["org.paymentauth/payment-required"] as { challenges: Record<string, unknown>[] }).challenges;
    const both = await call(
      client,
      "aggregates",
      { ticker: "AAPL" },
      { "x402/payment": { x402Version: 2, payload: {} }, "org.paymentauth/credential": { challenge, payload: { type: "authorization" } } },
    );
    expect(both.isError).toBe(true);
    expect(both.structuredContent).toMatchObject({ error: "invalid_request", reason: "multiple_payment_proofs" });
    const checkout = await call(client, "aggregates", { ticker: "AAPL" }, { "svc-payment-id": 7 });
    expect(checkout.structuredContent).toMatchObject({ error: "payment_unknown" });
    // The arguments are checked first, as an HTTP call's parameters are.
    const badArgs = await call(client, "aggregates", { ticker: "aapl" }, { "org.paymentauth/credential": "Payment abc" });
    expect(badArgs.structuredContent).toMatchObject({ error: "invalid_request", parameter: "ticker" });
  });

  it("never answers an internal error to hostile _meta proofs (random values under both bindings' keys)", async () => {
    const client = await connect();
    const [challenge] = ((await call(client, "basis"))._meta?.["org.paymentauth/payment-required"] as { challenges: Record<string, unknown>[] }).challenges;
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 2 || r < 0.2) return ["", "Payment x", "0x", -1, 1e308, true, null][Math.floor(rnd() * 7)];
      if (r < 0.4) return Array.from({ length: 2 }, () => value(depth + 1));
      const keys = ["challenge", "payload", "source", "id", "request", "x402Version", "accepted", "signature", "authorization", "method", "opaque"];
      return Object.fromEntries(keys.filter(() => rnd() < 0.4).map((k) => [k, value(depth + 1)]));
    };
    for (let i = 0; i < 40; i++) {
      const meta =
        i % 3 === 0
          ? { "org.paymentauth/credential": { challenge: { ...challenge, ...(value(1) as object) }, payload: value(1) } }
          : i % 3 === 1
            ? { "org.paymentauth/credential": value(0) }
            : { "x402/payment": { x402Version: 2, accepted: value(1), payload: value(1) } };
      const answer = await call(client, "basis", {}, meta).catch((e: unknown) => e);
      if (answer instanceof McpError) expect([-32602, -32043], JSON.stringify(meta)).toContain(answer.code);
      else expect((answer as CallToolResult).structuredContent?.error, JSON.stringify(meta)).not.toBe("internal_error");
    }
  });

  it("answers an unknown tool as invalid params, and GET /mcp with 405 (stateless: no SSE stream)", async () => {
    const client = await connect();
    const err = await call(client, "no_such_tool").catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32602);
    const get = await mcpFetch()(`http://${host}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });
});
