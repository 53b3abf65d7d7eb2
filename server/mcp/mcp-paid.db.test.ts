// Paid MCP tool calls end to end, in process against real PostgreSQL and a real anvil chain: the official MCP SDK client
// (its fetch routed to the /mcp route handler) calls a paid tool paid by mppx's McpClient (evm charge, and the stripe
// card method from $0.50), by an x402 MCP client (the x402 MCP transport's client logic over the official x402Client),
// and with a plan bearer; USDC moves on chain; one payment serves one tool call however many copies of it arrive at once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Challenge, Credential } from "mppx";
import { evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { findPayment } from "../payments/payments.queries";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { mppCardClient, TEST_CARD } from "../testing/card";
import {
  callGateway,
  createGatewaySeller,
  payChallenge,
  usdcBalance,
  useGatewayStack,
  type FakeUpstream,
  type GatewaySeller,
  type TestChain,
} from "../testing/gateway";
import { registerAnonymous, routedStore } from "../testing/identity-harness";
import { createCaller, sessionFor } from "../testing/trpc";
import { callToolWithX402, x402McpPayload } from "../testing/x402-mcp-client";

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const PAY_TO = anvilAddress(10);
const ARGS = { ticker: "AAPL", from: "2024-05-01", to: "2024-05-31" };

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);

/** fetch for the MCP SDK's transport: the /mcp route handler in process, with the Host header a real request has. */
function mcpFetch(extra: Record<string, string> = {}, host = seller.host): typeof fetch {
  return async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", host);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
}

async function connect(headers: Record<string, string> = {}, host = seller.host): Promise<Client> {
  const client = new Client({ name: "storefront-paid-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: mcpFetch(headers, host) }));
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<CallToolResult>;

/** A tool call's answer or the JSON-RPC error it was answered with, never thrown. */
const settle = (p: Promise<CallToolResult>) =>
  p.then(
    (r): CallToolResult | McpError => r,
    (e: unknown) => (e instanceof McpError ? e : Promise.reject(e)),
  );

/** What the upstream answered, as a paid tool's result carries it: structured content and the same JSON as text. */
function expectUpstreamData(res: CallToolResult) {
  expect(res.isError).toBeFalsy();
  expect(res.structuredContent).toMatchObject({ ticker: "AAPL", source: "fake-upstream", path: "/aggregates/AAPL" });
  expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
  expect(res._meta?.["svc-http-status"]).toBe(200);
}

const mppMethod = (payer: number) => evm.charge({ account: privateKeyToAccount(anvilPrivateKey(payer)), currencies: [evm.assets.base.USDC] });

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

describe("a paid tool call with the official clients", () => {
  it("lists the tools with their prices and answers a free tool on the same connection", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "aggregates")?._meta?.["x-payment-info"]).toMatchObject({
      priceUsd: "0.020000",
      protocols: ["x402", "x402-batch", "mpp", "credits"],
    });
    const guide = await call(client, "guide", { goal: "daily stock prices" });
    expect(guide.isError).toBeFalsy();
    expect(guide.structuredContent).toMatchObject({ recommendations: expect.arrayContaining([expect.objectContaining({ operation: "aggregates" })]) });
  });

  it("mppx's McpClient pays the evm charge: the upstream's JSON as structured content and text, MPP's receipt in _meta, USDC moved once", async () => {
    const payer = anvilAddress(1);
    const [before, sellerBefore] = [await usdc(payer), await usdc(PAY_TO)];
    const client = await connect();
    McpClient.wrap(client, { methods: [mppMethod(1)] });
    const res = (await client.callTool({ name: "aggregates", arguments: ARGS })) as CallToolResult & { receipt?: Record<string, unknown> };
    expectUpstreamData(res);
    const receipt = res._meta?.["org.paymentauth/receipt"] as Record<string, unknown>;
    expect(receipt).toMatchObject({ status: "success", method: "evm", reference: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(res.receipt).toEqual(receipt);
    expect(res._meta?.["svc-billing"]).toMatchObject({ rail: "mpp", status: "charged", amount_usd: "0.020000", operation: "aggregates" });
    expect(res._meta?.["x402/payment-response"]).toBeUndefined();
    expect(await usdc(payer)).toBe(before - 20_000n);
    expect(await usdc(PAY_TO)).toBe(sellerBefore + 20_000n);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res._meta?.["svc-payment-id"] as string } });
    expect(payment).toMatchObject({
      status: "consumed",
      rail: "mpp",
      payer: payer.toLowerCase(),
      transaction: receipt.reference,
      operationKey: "aggregates",
      transport: "mcp",
    });
    expect(await db.ledgerEntry.findMany({ where: { paymentId: payment.id } })).toMatchObject([{ kind: "charge", amountMicros: 20_000n }]);
    // The upstream was asked the HTTP call the tool stands for, without any of the payment.
    expect(upstream.state.lastHeaders.authorization).toBeUndefined();
  });

  it("an x402 MCP client pays from the tool result's requirements: x402's settlement in _meta, USDC moved once", async () => {
    const payer = anvilAddress(2);
    const before = await usdc(payer);
    const client = await connect();
    const res = await callToolWithX402(client, { name: "aggregates", arguments: ARGS }, anvilPrivateKey(2));
    expectUpstreamData(res);
    const settlement = res._meta?.["x402/payment-response"] as Record<string, unknown>;
    expect(settlement).toMatchObject({
      success: true,
      network: "eip155:8453",
      payer: payer.toLowerCase(),
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(res._meta?.["org.paymentauth/receipt"]).toBeUndefined();
    expect(res._meta?.["svc-billing"]).toMatchObject({ rail: "x402", status: "charged", amount_usd: "0.020000" });
    expect(await usdc(payer)).toBe(before - 20_000n);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res._meta?.["svc-payment-id"] as string } });
    expect(payment).toMatchObject({ status: "consumed", rail: "x402", transaction: settlement.transaction, transport: "mcp" });
  });

  it("a plan bearer on the MCP requests pays from credit bought first: no challenge, the credit drawn", async () => {
    const store = routedStore(seller.host);
    const agent = await registerAnonymous(store);
    const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
    const purchase = (headers: Record<string, string>) =>
      purchaseRoute.POST(
        new Request(`http://${seller.host}/plans/${planId}/purchase`, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json", authorization: `Bearer ${agent.token}`, ...headers },
          body: JSON.stringify({ amountUsd: "5.00" }),
        }),
        { params: Promise.resolve({ planId }) },
      );
    const bought = await purchase(await payChallenge(await purchase({}), 3, { maxAmountPerPayment: "$100" }));
    expect(bought.status).toBe(200);

    const payer = anvilAddress(3);
    const before = await usdc(payer);
    const client = await connect({ authorization: `Bearer ${agent.token}` });
    const res = await call(client, "aggregates", ARGS);
    expectUpstreamData(res);
    expect(res._meta?.["svc-billing"]).toMatchObject({ rail: "credits", status: "charged", amount_usd: "0.020000" });
    expect(res._meta?.["org.paymentauth/receipt"]).toBeUndefined();
    expect(res._meta?.["x402/payment-response"]).toBeUndefined();
    await flushCaptures();
    const ent = await call(client, "entitlements", {});
    expect(ent.structuredContent).toMatchObject({ plans: [{ id: planId, balanceUsd: "4.980000" }] });
    // Credit, not a wallet: nothing moved on chain for the call.
    expect(await usdc(payer)).toBe(before);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res._meta?.["svc-payment-id"] as string } });
    expect(payment).toMatchObject({ rail: "credits", credentialId: agent.credentialId, operationKey: "aggregates", transport: "mcp" });
  });
});

describe("the transport on the payment", () => {
  it("a tool call's payment says mcp from its challenge on; the same call over HTTP says http", async () => {
    const client = await connect();
    const unpaid = await call(client, "aggregates", ARGS);
    // Issue 22 (stateless challenges): the 402 writes no row; the payment its id stands for says mcp.
    const unpaidId = unpaid._meta?.["svc-payment-id"] as string;
    expect(await db.payment.findUnique({ where: { id: unpaidId } })).toBeNull();
    expect(await findPayment(seller.sellerId, unpaidId)).toMatchObject({ status: "challenged", transport: "mcp" });
    const path = `/api/v1/aggregates/AAPL?from=${ARGS.from}&to=${ARGS.to}`;
    const challenge = await callGateway(seller.host, path);
    expect(challenge.status).toBe(402);
    const paid = await callGateway(seller.host, path, { headers: await payChallenge(challenge, 8) });
    expect(paid.status).toBe(200);
    expect(await db.payment.findUniqueOrThrow({ where: { id: paid.headers.get("svc-payment-id")! } })).toMatchObject({ status: "consumed", transport: "http" });
  });
});

describe("the transport of a challenge paid over the other one", () => {
  // The payment is the call that paid and was delivered: the lock takes that call's transport. Its own seller, so the
  // console counts below stay this file's seller's.
  it("an HTTP 402 paid by an MCP tool call says mcp; an MCP challenge paid by an HTTP call says http", async () => {
    const other = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    const client = await connect({}, other.host);
    const path = `/api/v1/aggregates/AAPL?from=${ARGS.from}&to=${ARGS.to}`;

    const overHttp = await callGateway(other.host, path);
    expect(overHttp.status).toBe(402);
    const [httpChallenge] = Challenge.fromHeadersList(overHttp.headers).filter((c) => c.method === "evm");
    const credential = Credential.deserialize(await mppMethod(9).createCredential({ challenge: httpChallenge as never, context: {} }));
    const paidOverMcp = await call(client, "aggregates", ARGS, { "org.paymentauth/credential": credential });
    expectUpstreamData(paidOverMcp);
    const httpPayment = ((await overHttp.json()) as { payment: { id: string } }).payment.id;
    expect(paidOverMcp._meta?.["svc-payment-id"]).toBe(httpPayment);
    expect(await db.payment.findUniqueOrThrow({ where: { id: httpPayment } })).toMatchObject({ status: "consumed", transport: "mcp" });

    const overMcp = await call(client, "aggregates", ARGS);
    const [mcpChallenge] = (overMcp._meta?.["org.paymentauth/payment-required"] as { challenges: Record<string, unknown>[] }).challenges;
    const mcpPayment = overMcp._meta?.["svc-payment-id"] as string;
    // Issue 22: no row until it is paid; the payment its id stands for says mcp.
    expect(await findPayment(other.sellerId, mcpPayment)).toMatchObject({ status: "challenged", transport: "mcp" });
    const authorization = await mppMethod(9).createCredential({ challenge: mcpChallenge as never, context: {} });
    const paidOverHttp = await callGateway(other.host, path, { headers: { authorization } });
    expect(paidOverHttp.status).toBe(200);
    expect(paidOverHttp.headers.get("svc-payment-id")).toBe(mcpPayment);
    expect(await db.payment.findUniqueOrThrow({ where: { id: mcpPayment } })).toMatchObject({ status: "consumed", transport: "http" });
  });
});

describe("a paid tool call the upstream fails", () => {
  // Issue 23 (pay only for success) changed this from "a 4xx is charged": an upstream error is released on every transport.
  it("an upstream error is a tool error with the upstream's status and charges nothing: a 4xx or a 5xx is released", async () => {
    const payer = anvilAddress(7);
    const client = await connect();
    McpClient.wrap(client, { methods: [mppMethod(7)] });
    const before = await usdc(payer);
    upstream.state.mode = { status: 404, body: { error: "not_found", detail: "no such ticker" } };
    const notFound = (await client.callTool({ name: "aggregates", arguments: ARGS })) as CallToolResult;
    expect(notFound.isError).toBe(true);
    expect(notFound.structuredContent).toEqual({ error: "not_found", detail: "no such ticker" });
    expect(notFound._meta).toMatchObject({
      "svc-http-status": 404,
      "svc-billing": { status: "released", rail: "mpp", charged_usd: "0.000000", reason: "upstream_rejected" },
    });
    expect(notFound._meta?.["org.paymentauth/receipt"]).toBeUndefined();
    expect(await usdc(payer)).toBe(before);

    upstream.state.mode = { status: 503 };
    const down = (await client.callTool({ name: "aggregates", arguments: ARGS })) as CallToolResult;
    expect(down.isError).toBe(true);
    expect(down._meta).toMatchObject({ "svc-billing": { status: "released", charged_usd: "0.000000" } });
    expect(down._meta?.["org.paymentauth/receipt"]).toBeUndefined();
    expect(await usdc(payer)).toBe(before);
    expect((await db.payment.findUniqueOrThrow({ where: { id: notFound._meta?.["svc-payment-id"] as string } })).status).toBe("released");
    const released = await db.payment.findUniqueOrThrow({ where: { id: down._meta?.["svc-payment-id"] as string } });
    expect(released.status).toBe("released");
  });
});

describe("one payment serves one tool call", () => {
  it("twenty concurrent copies of one MPP credential: one served, the others MPP's verification failure, never an internal error", async () => {
    const client = await connect();
    const unpaid = await call(client, "aggregates", ARGS);
    const [challenge] = (unpaid._meta?.["org.paymentauth/payment-required"] as { challenges: Record<string, unknown>[] }).challenges;
    const credential = Credential.deserialize(await mppMethod(4).createCredential({ challenge: challenge as never, context: {} }));
    const payer = anvilAddress(4);
    const [before, callsBefore] = [await usdc(payer), upstream.state.calls];

    const answers = await Promise.all(Array.from({ length: 20 }, () => settle(call(client, "aggregates", ARGS, { "org.paymentauth/credential": credential }))));
    // One charge. Issue 23 (resumable delivery): a copy that arrives once the charge is recorded is served again,
    // marked replay and charged nothing; the others are refused while the first is in flight.
    const served = answers.filter((a): a is CallToolResult => !(a instanceof McpError) && !a.isError);
    const replays = served.filter((a) => (a._meta?.["svc-billing"] as Record<string, unknown>).replay === "true");
    expect(served.length - replays.length).toBe(1);
    served.forEach((a) => expectUpstreamData(a));
    // mppx's MCP receipt names the challenge it paid.
    expect(served.find((a) => !replays.includes(a))!._meta?.["org.paymentauth/receipt"]).toMatchObject({
      status: "success",
      method: "evm",
      challengeId: challenge!.id,
    });
    for (const a of answers.filter((a) => !served.includes(a as CallToolResult))) {
      // MPP's binding: a refused credential is the JSON-RPC error -32043 with the reason and fresh challenges.
      expect(a).toBeInstanceOf(McpError);
      const e = a as McpError;
      expect(e.code).toBe(-32043);
      const data = e.data as { failure: { reason: string }; challenges: unknown[]; error: string; httpStatus: number };
      expect(data.error).toMatch(/^payment_(consumed|in_progress|invalid)$/);
      expect(data.httpStatus).toBeLessThan(500);
      expect(data.challenges.length).toBeGreaterThan(0);
    }
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect(await usdc(payer)).toBe(before - 20_000n);
    expect(await db.payment.count({ where: { id: challenge!.id as string } })).toBeLessThanOrEqual(1);
    expect(await db.payment.count({ where: { sellerId: seller.sellerId, payer: payer.toLowerCase(), status: "consumed" } })).toBe(1);
  });

  it("twenty concurrent copies of one x402 payload: one served, the others x402's refusal with fresh requirements, never an internal error", async () => {
    const client = await connect();
    const unpaid = await call(client, "aggregates", ARGS);
    const payload = await x402McpPayload(unpaid, anvilPrivateKey(5));
    const payer = anvilAddress(5);
    const [before, callsBefore] = [await usdc(payer), upstream.state.calls];

    const answers = await Promise.all(Array.from({ length: 20 }, () => settle(call(client, "aggregates", ARGS, { "x402/payment": payload }))));
    expect(answers.filter((a) => a instanceof McpError)).toEqual([]);
    const results = answers as CallToolResult[];
    // One charge; a copy arriving once it is recorded is re-delivered (issue 23), marked replay, charged nothing.
    const served = results.filter((r) => !r.isError);
    const replays = served.filter((r) => (r._meta?.["svc-billing"] as Record<string, unknown>).replay === "true");
    expect(served.length - replays.length).toBe(1);
    served.forEach((r) => expectUpstreamData(r));
    expect(served.find((r) => !replays.includes(r))!._meta?.["x402/payment-response"]).toMatchObject({ success: true });
    for (const r of results.filter((r) => r.isError)) {
      // x402's binding: a tool error carrying fresh requirements (PaymentRequired) and why this payload was refused.
      expect(r.structuredContent).toMatchObject({ x402Version: 2, error: expect.stringMatching(/^payment_(consumed|in_progress|invalid)$/) });
      expect((r.structuredContent as { accepts: unknown[] }).accepts.length).toBeGreaterThan(0);
      expect(r._meta?.["svc-http-status"]).toBeLessThan(500);
    }
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect(await usdc(payer)).toBe(before - 20_000n);
  });

  it("a malformed _meta credential is a clear error in its binding's terms and charges nothing", async () => {
    const client = await connect();
    const callsBefore = upstream.state.calls;
    const bad = await settle(call(client, "aggregates", ARGS, { "org.paymentauth/credential": { challenge: { id: "nope" }, payload: { signature: "0x" } } }));
    expect(bad).toBeInstanceOf(McpError);
    expect((bad as McpError).code).toBe(-32602);
    expect((bad as McpError).data).toMatchObject({ error: "payment_required", reason: "malformed_credential", detail: expect.stringContaining("credential") });
    // A well-formed credential for another call's challenge (another tool's price and request): refused, not served.
    const other = await call(client, "avg_interest_rates", {});
    const [challenge] = (other._meta?.["org.paymentauth/payment-required"] as { challenges: Record<string, unknown>[] }).challenges;
    const credential = Credential.deserialize(await mppMethod(6).createCredential({ challenge: challenge as never, context: {} }));
    const wrong = await settle(call(client, "aggregates", ARGS, { "org.paymentauth/credential": credential }));
    expect(wrong).toBeInstanceOf(McpError);
    expect((wrong as McpError).code).toBe(-32043);
    expect(upstream.state.calls).toBe(callsBefore);
  });
});

describe("rate limits on malformed _meta proofs", () => {
  // As over HTTP (run-paid-call): a proof that cannot be read is anonymous traffic and spends the client's budget.
  it("a client sending malformed _meta proofs in a loop ends at its rate limit: a tool error with 429 and retry_after, in every binding", async () => {
    const limited = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "4" }, async () => {
      const client = await connect({}, limited.host);
      const bad = { "org.paymentauth/credential": { challenge: { id: "nope" }, payload: { signature: "0x" } } };
      const answers: (CallToolResult | McpError)[] = [];
      for (let i = 0; i < 6; i++) answers.push(await settle(call(client, "aggregates", ARGS, bad)));
      // Within the budget, MPP's own answer to a malformed credential (-32602); past it, the rate limit.
      for (const a of answers.slice(0, 4)) expect(a instanceof McpError && a.code).toBe(-32602);
      for (const a of answers.slice(4)) {
        expect(a).not.toBeInstanceOf(McpError);
        const r = a as CallToolResult;
        expect(r.isError).toBe(true);
        expect(r.structuredContent).toMatchObject({ error: "rate_limit_exceeded", scope: "client", limit: 4, retry_after: expect.any(Number) });
        expect(r._meta?.["svc-http-status"]).toBe(429);
      }
      // The same budget: a malformed x402 payload and an unpaid call are refused for it too, and nothing was served.
      const x402 = (await call(client, "aggregates", ARGS, { "x402/payment": "not-an-object" })) as CallToolResult;
      expect(x402.structuredContent).toMatchObject({ error: "rate_limit_exceeded", scope: "client" });
      expect(x402._meta?.["svc-http-status"]).toBe(429);
      const unpaid = await call(client, "aggregates", ARGS);
      expect(unpaid.structuredContent).toMatchObject({ error: "rate_limit_exceeded", scope: "client" });
      expect(await db.payment.count({ where: { sellerId: limited.sellerId, status: { not: "challenged" } } })).toBe(0);
    });
  });
});

describe("the console tells HTTP calls from MCP tool calls", () => {
  // Runs after the tests above, on this file's seller: MCP paid calls (not credit) served and charged: the mppx one,
  // the x402 one, one of each twenty replays = 4, plus two released (the upstream 404 and 503: issue 23 charges only a
  // success); over HTTP, the plan purchase and the HTTP call of the transport test = 2.
  it("lists, filters and splits payments by transport: the payments list, the funnel and the overview", async () => {
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
    const caller = createCaller(sessionFor(user.id, seller.sellerId));
    const mcp = (await caller.payments.list({ transport: "mcp" })).payments;
    expect(mcp.length).toBe(6);
    expect(mcp.every((p) => p.transport === "mcp")).toBe(true);
    const http = (await caller.payments.list({ transport: "http" })).payments;
    expect(http.map((p) => p.transport)).toEqual(["http", "http"]);
    expect((await caller.payments.list({})).payments).toHaveLength(8);
    // Credit draws are usage: the Usage page's list filters by transport too.
    expect((await caller.payments.list({ usage: true, transport: "mcp" })).payments).toMatchObject([{ rail: "credits", transport: "mcp" }]);
    expect(await caller.payments.summary({ transport: "mcp" })).toMatchObject({ count: 6, paid: { count: 4, amountUsd: "0.080000" } });

    const funnel = await caller.analytics.funnel({ preset: "today" });
    expect(funnel.byTransport).toEqual([
      { transport: "http", calls: 2, netUsd: "5.020000", answered: 2, served: 2, settled: 2 },
      { transport: "mcp", calls: 5, netUsd: "0.080000", answered: 6, served: 4, settled: 4 },
    ]);
    const narrowed = await caller.analytics.funnel({ preset: "today", rail: "x402" });
    expect(narrowed.byTransport.find((t) => t.transport === "mcp")).toMatchObject({ answered: 2, settled: 2 });
    const overview = await caller.analytics.overview({ preset: "today" });
    expect(overview.byTransport).toEqual([
      { transport: "http", calls: 2, netUsd: "5.020000" },
      { transport: "mcp", calls: 5, netUsd: "0.080000" },
    ]);
  });
});

describe("the MPP card method over MCP", () => {
  // Its own seller, so the console counts above stay this file's seller's.
  it("a tool at or above $0.50 offers stripe beside evm; mppx's McpClient pays it by card: the result, MPP's receipt, the card charged once", async () => {
    const cardSeller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    const client = await connect({}, cardSeller.host);
    const unpaid = await call(client, "backtest", { ticker: "AAPL", years: 2 });
    const required = unpaid._meta?.["org.paymentauth/payment-required"] as { challenges: { method: string }[] };
    expect(required.challenges.map((c) => c.method)).toEqual(["evm", "stripe"]);
    // Below the card minimum there is no stripe challenge.
    const cheap = await call(client, "aggregates", ARGS);
    expect((cheap._meta?.["org.paymentauth/payment-required"] as { challenges: { method: string }[] }).challenges.map((c) => c.method)).toEqual(["evm"]);

    const issued: string[] = [];
    // mppx's stripe charge, its wallet issuing shared payment tokens at the built-in test processor (as over HTTP).
    McpClient.wrap(client, { methods: (await mppCardClient(TEST_CARD.success, { issued })).methods });
    const callsBefore = upstream.state.calls;
    const res = (await client.callTool({ name: "backtest", arguments: { ticker: "AAPL", years: 2 } })) as CallToolResult;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ source: "fake-upstream" });
    expect(upstream.state.calls - callsBefore).toBe(1);
    const receipt = res._meta?.["org.paymentauth/receipt"] as Record<string, unknown>;
    expect(receipt).toMatchObject({ status: "success", method: "stripe", reference: expect.stringMatching(/^pi_test_/) });
    expect(res._meta?.["svc-billing"]).toMatchObject({ rail: "card", status: "charged", amount_usd: "0.500000", operation: "backtest" });
    expect(issued).toHaveLength(1);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res._meta?.["svc-payment-id"] as string }, include: { card: true } });
    expect(payment).toMatchObject({ status: "consumed", rail: "card", transaction: receipt.reference, operationKey: "backtest", transport: "mcp" });
    expect(payment.card).toMatchObject({ flow: "mpp", cardLast4: "4242" });
    expect(await db.ledgerEntry.findMany({ where: { paymentId: payment.id } })).toMatchObject([{ kind: "charge", amountMicros: 500_000n }]);
  });

  it("a declined card over MCP serves nothing: a tool error naming the decline, no receipt, nothing charged", async () => {
    const cardSeller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    const client = await connect({}, cardSeller.host);
    McpClient.wrap(client, { methods: (await mppCardClient(TEST_CARD.decline)).methods });
    const res = (await client.callTool({ name: "backtest", arguments: { ticker: "AAPL", years: 2 } })) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ error: "settlement_failed", settlementReason: "card_declined: generic_decline" });
    expect(res.structuredContent?.source).toBeUndefined();
    expect(res._meta?.["org.paymentauth/receipt"]).toBeUndefined();
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res._meta?.["svc-payment-id"] as string } });
    expect(payment).toMatchObject({ status: "failed", rail: "card", transport: "mcp" });
    expect(await db.ledgerEntry.findMany({ where: { paymentId: payment.id } })).toEqual([]);
  });
});
