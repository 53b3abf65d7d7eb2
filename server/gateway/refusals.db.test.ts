// Every refusal path of the paid pipeline in one table, in process against the real gateway (PostgreSQL, the test
// chain, the official clients making the proofs): each row is one way a payment or a paid call is turned down, on a
// rail and a binding (HTTP or MCP), and what it must answer: SERVICE.md part 7's code and status (server/errors.ts;
// where part 7 names no code, the one docs/discovery.md's table gives), the fields that refine it (`reason`,
// `settlementReason`), and the fresh offer of the rail it came from (x402: PAYMENT-REQUIRED as x402HTTPClient parses
// it, and `accepts`; MPP: WWW-Authenticate challenges as problem details; credits and a bad svc-payment-id: none).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { signVoucher } from "@x402/evm/batch-settlement/client";
import { privateKeyToAccount } from "viem/accounts";
import { Challenge, Credential } from "mppx";
import { describe, expect, it, vi } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import * as quoteRoute from "../../app/vendor/agent/quote/route";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { ERROR_STATUS } from "../errors";
import { newId } from "../lib/ids";
import { mppCardCredential, openCheckoutFor } from "../testing/card";
import { callGateway, officialX402Client, payChallenge, payChallengeMpp, useGatewayStack, type GatewaySeller, type TestChain } from "../testing/gateway";
import { registerAnonymous, routedStore } from "../testing/identity-harness";
import { paymentRequiredOf, x402McpPayload } from "../testing/x402-mcp-client";
import { NETWORK } from "../chain/config";
import { officialBatchClient, payBatch } from "../payments/rails/x402-batch/official-client.test-kit";

let seller: GatewaySeller;
let chain: TestChain;
useGatewayStack("refusals-upstream-secret-0123456789", (s) => ({ seller, chain } = s));

const AAPL = "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-31";
const MSFT = "/api/v1/aggregates/MSFT?from=2024-03-01&to=2024-03-31";
const BACKTEST = "/api/v1/backtest/AAPL?years=1";
/** Funded payers (1 to 9) sign proofs that would pay; 17 to 19 hold no USDC. */
const PAYER = 5;
const UNFUNDED = { x402: 17, mpp: 18, mcp: 19, batch: 20 };

/** What an answer carried, whatever its transport: the status, the JSON, and where the fresh offer would be. */
type Answer = { status: number; body: Record<string, unknown>; headers: Headers; mcp?: { code?: number; result?: CallToolResult } };
type Offer = "x402" | "mpp" | "none";
type Row = {
  name: string;
  rail: "x402" | "x402-batch" | "mpp" | "card" | "credits" | "none";
  binding: "http" | "mcp";
  answer(): Promise<Answer>;
  expect: { status: number; error: string; reason?: string; settlementReason?: string; offer: Offer; extra?: Record<string, unknown> };
};

const call = (path: string, headers: Record<string, string> = {}) => callGateway(seller.host, path, { headers });

async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** A proof made by the official x402 client for a fresh 402 of `path`, by `payer`. */
const x402Proof = async (path: string, payer: number) => payChallenge(await call(path), payer);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An agent with a credit plan whose credit is spent (a grant of 0 left): the plan covers the meter, nothing to draw. */
async function exhaustedAgent(): Promise<string> {
  const agent = await registerAnonymous(routedStore(seller.host));
  const plan = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } });
  const source = await db.payment.create({
    data: {
      id: newId("pay"),
      sellerId: seller.sellerId,
      status: "consumed",
      rail: "x402",
      method: "POST",
      path: `/plans/${plan.id}/purchase`,
      query: "",
      operationKey: "plan_purchase",
      amountMicros: 10_000n,
      credentialId: agent.credentialId,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  await db.creditGrant.create({
    data: {
      id: newId("grt"),
      sellerId: seller.sellerId,
      planId: plan.id,
      credentialId: agent.credentialId,
      sourcePaymentId: source.id,
      amountMicros: 10_000n,
      remainingMicros: 0n,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return agent.token;
}

/** The quote's $0 proof, signed by x402's official client and then claimed by another wallet (the signature fails). */
async function forgedWalletProof(): Promise<Response> {
  const quote = (headers: Record<string, string> = {}) =>
    quoteRoute.POST(
      new Request(`http://${seller.host}/vendor/agent/quote`, {
        method: "POST",
        headers: { host: seller.host, "content-type": "application/json", ...headers },
        body: JSON.stringify({ goal: "daily AAPL bars for 2017" }),
      }),
      { params: Promise.resolve({}) },
    );
  const first = await quote();
  const signing = new x402HTTPClient(officialX402Client(PAYER));
  const payload = await signing.createPaymentPayload(signing.getPaymentRequiredResponse((n) => first.headers.get(n), await first.json()));
  (payload.payload as { authorization: { from: string } }).authorization.from = anvilAddress(PAYER + 1);
  return quote(signing.encodePaymentSignatureHeader(payload));
}

/** A proof whose `from` names another wallet than the one that signed it. */
function claimingFrom(headers: Record<string, string>, from: string): Record<string, string> {
  const [name, value] = Object.entries(headers)[0]!;
  const payload = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  payload.payload.authorization.from = from;
  return { [name]: Buffer.from(JSON.stringify(payload)).toString("base64") };
}

/** The MCP SDK client, its fetch routed to the /mcp route handler in process. */
async function mcpClient(): Promise<Client> {
  const route = mcpRoute as unknown as Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
  const fetchMcp: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", seller.host);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return route[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
  const client = new Client({ name: "refusals-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${seller.host}/mcp`), { fetch: fetchMcp }));
  return client;
}

const ARGS = { ticker: "AAPL", from: "2024-03-01", to: "2024-03-31" };

/** A tool call's answer (a tool result, or the JSON-RPC error it was answered with) in the table's terms. */
async function toolAnswer(meta: Record<string, unknown>): Promise<Answer> {
  const client = await mcpClient();
  try {
    const result = (await client.callTool({ name: "aggregates", arguments: ARGS, _meta: meta })) as CallToolResult;
    const body = (result.structuredContent ?? {}) as Record<string, unknown>;
    return { status: Number(result._meta?.["svc-http-status"]), body, headers: new Headers(), mcp: { result } };
  } catch (e) {
    if (!(e instanceof McpError)) throw e;
    const data = e.data as Record<string, unknown>;
    return {
      status: Number(data.httpStatus ?? ERROR_STATUS[data.error as keyof typeof ERROR_STATUS]),
      body: data,
      headers: new Headers(),
      mcp: { code: e.code },
    };
  } finally {
    await client.close();
  }
}

const ROWS: Row[] = [
  // --- x402 over HTTP ---
  {
    name: "an x402 header that is not a payment",
    rail: "x402",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, { "X-PAYMENT": "bm90LWpzb24=" })),
    expect: { status: 402, error: "payment_required", reason: "malformed_payment", offer: "x402" },
  },
  {
    name: "an x402 proof whose signature does not recover to its payer",
    rail: "x402",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, claimingFrom(await x402Proof(AAPL, PAYER), anvilAddress(PAYER + 1)))),
    expect: { status: 402, error: "payment_required", reason: "invalid_signature", offer: "x402" },
  },
  {
    name: "an x402 proof from a wallet without the funds",
    rail: "x402",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, await x402Proof(AAPL, UNFUNDED.x402))),
    expect: { status: 402, error: "settlement_failed", settlementReason: "insufficient_funds", offer: "x402" },
  },
  {
    name: "an x402 proof whose challenge expired",
    rail: "x402",
    binding: "http",
    async answer() {
      const proof = await x402Proof(AAPL, PAYER);
      // Ten minutes later: past PAYMENT_CHALLENGE_TTL_SECONDS.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 600_000 });
      try {
        return await answerOf(await call(AAPL, proof));
      } finally {
        vi.useRealTimers();
      }
    },
    expect: { status: 402, error: "payment_required", reason: "challenge_expired", offer: "x402" },
  },
  {
    name: "an x402 proof made for another request",
    rail: "x402",
    binding: "http",
    answer: async () => answerOf(await call(MSFT, await x402Proof(AAPL, PAYER))),
    expect: { status: 409, error: "payment_request_mismatch", offer: "x402" },
  },
  {
    name: "an x402 v1 proof (it echoes no challenge) for a plan purchase",
    rail: "x402",
    binding: "http",
    async answer() {
      const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
      const agent = await registerAnonymous(routedStore(seller.host));
      const purchase = (headers: Record<string, string>) =>
        purchaseRoute.POST(
          new Request(`http://${seller.host}/plans/${planId}/purchase`, {
            method: "POST",
            headers: { host: seller.host, "content-type": "application/json", ...bearer(agent.token), ...headers },
            body: JSON.stringify({ amountUsd: "5.00" }),
          }),
          { params: Promise.resolve({ planId }) },
        );
      return answerOf(await purchase(await payChallenge(await purchase({}), PAYER, { v1: true, maxAmountPerPayment: "$10" })));
    },
    expect: { status: 402, error: "payment_required", reason: "challenge_missing", offer: "x402" },
  },
  // --- x402 batch-settlement over HTTP ---
  {
    name: "a batch-settlement deposit from a wallet without the funds",
    rail: "x402-batch",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, (await payBatch(officialBatchClient(UNFUNDED.batch, { rpcUrl: chain.rpcUrl }), await call(AAPL))).headers)),
    expect: { status: 402, error: "settlement_failed", settlementReason: "insufficient_funds", offer: "x402" },
  },
  {
    name: "a batch-settlement voucher signed by a stranger",
    rail: "x402-batch",
    binding: "http",
    async answer() {
      const { payload } = await payBatch(officialBatchClient(PAYER, { rpcUrl: chain.rpcUrl }), await call(AAPL));
      const voucher = (payload.payload as { voucher: { channelId: `0x${string}`; maxClaimableAmount: string; signature: string } }).voucher;
      const stranger = await signVoucher(privateKeyToAccount(anvilPrivateKey(7)), voucher.channelId, voucher.maxClaimableAmount, NETWORK);
      voucher.signature = stranger.signature;
      return answerOf(await call(AAPL, { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") }));
    },
    expect: { status: 402, error: "payment_required", reason: "invalid_voucher_signature", offer: "x402" },
  },
  // --- MPP over HTTP ---
  {
    name: "an MPP credential that cannot be read",
    rail: "mpp",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, { authorization: "Payment %%%" })),
    expect: { status: 402, error: "payment_required", reason: "malformed_credential", offer: "mpp" },
  },
  {
    name: "an MPP credential of a method no rail takes",
    rail: "mpp",
    binding: "http",
    async answer() {
      const [evm] = Challenge.fromHeadersList((await call(AAPL)).headers).filter((c) => c.method === "evm");
      return answerOf(await call(AAPL, { authorization: Credential.serialize({ challenge: { ...evm!, method: "tempo" }, payload: {} }) }));
    },
    expect: { status: 402, error: "payment_required", reason: "method_unsupported", offer: "mpp" },
  },
  {
    name: "an MPP credential from a wallet without the funds",
    rail: "mpp",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, await payChallengeMpp(await call(AAPL), UNFUNDED.mpp))),
    expect: { status: 402, error: "settlement_failed", settlementReason: "insufficient_funds", offer: "mpp" },
  },
  {
    name: "an MPP credential made for another request",
    rail: "mpp",
    binding: "http",
    answer: async () => answerOf(await call(MSFT, await payChallengeMpp(await call(AAPL), PAYER))),
    expect: { status: 409, error: "payment_request_mismatch", offer: "mpp" },
  },
  // --- card ---
  {
    name: "a svc-payment-id that is no payment id",
    rail: "card",
    binding: "http",
    answer: async () => answerOf(await call(BACKTEST, { "svc-payment-id": "pay_nope" })),
    expect: { status: 404, error: "payment_unknown", offer: "none" },
  },
  {
    name: "a svc-payment-id whose checkout nobody paid",
    rail: "card",
    binding: "http",
    answer: async () => answerOf(await call(BACKTEST, { "svc-payment-id": (await openCheckoutFor(seller.host, BACKTEST)).paymentId })),
    expect: { status: 402, error: "payment_incomplete", offer: "none" },
  },
  {
    name: "a card credential carrying two different shared payment tokens",
    rail: "card",
    binding: "http",
    answer: async () =>
      answerOf(
        await call(BACKTEST, {
          authorization: await mppCardCredential(await call(BACKTEST), "spt_in_the_credential"),
          "svc-agent-authorization": "Bearer spt_in_the_header",
        }),
      ),
    expect: { status: 402, error: "payment_required", reason: "malformed_credential", offer: "mpp" },
  },
  // --- plan credit ---
  {
    name: "a bearer that is not a token of ours",
    rail: "credits",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, bearer("not-a-token"))),
    expect: { status: 401, error: "invalid_token", offer: "none" },
  },
  {
    name: "a plan whose credit ran out",
    rail: "credits",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, bearer(await exhaustedAgent()))),
    expect: { status: 402, error: "usage_exhausted", offer: "x402" },
  },
  // --- before any rail reads the proof ---
  {
    name: "a comma-combined Authorization",
    rail: "none",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, { authorization: "Bearer a, Payment b" })),
    expect: { status: 401, error: "invalid_token", reason: "combined_authorization_unsupported", offer: "none" },
  },
  {
    name: "proofs of two rails at once",
    rail: "none",
    binding: "http",
    answer: async () => answerOf(await call(AAPL, { ...(await x402Proof(AAPL, PAYER)), authorization: "Payment %%%" })),
    expect: { status: 400, error: "invalid_request", reason: "multiple_payment_proofs", offer: "none" },
  },
  // --- the free quote's $0 wallet proof ---
  {
    name: "a $0 wallet proof whose signature does not verify",
    rail: "x402",
    binding: "http",
    answer: async () => answerOf(await forgedWalletProof()),
    expect: { status: 402, error: "identity_invalid", reason: "invalid_signature", offer: "x402" },
  },
  // --- MCP ---
  {
    name: "an x402 payment in _meta that is not one",
    rail: "x402",
    binding: "mcp",
    answer: () => toolAnswer({ "x402/payment": { x402Version: 2, payload: {} } }),
    expect: { status: 402, error: "payment_required", reason: "malformed_payment", offer: "x402" },
  },
  {
    name: "an x402 payment in _meta from a wallet without the funds",
    rail: "x402",
    binding: "mcp",
    async answer() {
      const client = await mcpClient();
      const unpaid = (await client.callTool({ name: "aggregates", arguments: ARGS })) as CallToolResult;
      await client.close();
      return toolAnswer({ "x402/payment": await x402McpPayload(unpaid, anvilPrivateKey(UNFUNDED.mcp)) });
    },
    expect: { status: 402, error: "settlement_failed", settlementReason: "insufficient_funds", offer: "x402" },
  },
  {
    name: "an MPP credential in _meta that cannot be read",
    rail: "mpp",
    binding: "mcp",
    answer: () => toolAnswer({ "org.paymentauth/credential": "Payment abc" }),
    expect: { status: 402, error: "payment_required", reason: "malformed_credential", offer: "none" },
  },
];

/** The fresh offer an answer carries, as the rail's own clients read it. */
function expectOffer(a: Answer, offer: Offer, why: string) {
  if (offer === "x402") {
    const required =
      a.mcp?.result !== undefined
        ? paymentRequiredOf(a.mcp.result)
        : new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((name) => a.headers.get(name), a.body);
    expect(required?.accepts.length, "x402 accepts").toBeGreaterThan(0);
    expect(required!.accepts[0]).toMatchObject({ network: "eip155:8453", payTo: anvilAddress(10) });
    // The refusal's cause, in x402's own field (the unpaid 402 says payment_required).
    if (a.mcp === undefined) expect(required!.error).toBe(why);
    return;
  }
  if (offer === "mpp") {
    expect(a.headers.get("content-type")).toContain("application/problem+json");
    expect(Challenge.fromHeadersList(a.headers).length, "MPP challenges").toBeGreaterThan(0);
    return;
  }
  expect(a.headers.get("payment-required")).toBeNull();
  expect(a.body.accepts).toBeUndefined();
}

describe("every refusal path answers SERVICE.md part 7's code and status, with the fresh offer of its rail", () => {
  it.each(ROWS)("$binding $rail: $name", async (row) => {
    const a = await row.answer();
    const e = row.expect;
    expect({ status: a.status, error: a.body.error }).toEqual({ status: e.status, error: e.error });
    // The status is the table's (server/errors.ts), whatever the binding.
    expect(ERROR_STATUS[e.error as keyof typeof ERROR_STATUS]).toBe(e.status);
    if (e.reason) expect(a.body.reason).toBe(e.reason);
    if (e.settlementReason) expect(a.body.settlementReason).toBe(e.settlementReason);
    if (e.extra) expect(a.body).toMatchObject(e.extra);
    // part 7: `reason` refines only payment_required (and invalid_token's, and plan_required's, as it lists them).
    if (e.error === "settlement_failed") expect(a.body.reason).toBeUndefined();
    expectOffer(a, e.offer, e.reason ?? e.settlementReason ?? e.error);
  });

  it("an x402 refusal's fresh offer is paid as it is by the official client, with no further round trip", async () => {
    const refused = await call(AAPL, { "X-PAYMENT": "bm90LWpzb24=" });
    expect(refused.status).toBe(402);
    const paid = await call(AAPL, await payChallenge(refused, PAYER));
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).toBeTruthy();
  });

  it("answers no code outside the error table, and never payment_invalid", () => {
    for (const row of ROWS) expect(row.expect.error in ERROR_STATUS, row.name).toBe(true);
    expect("payment_invalid" in ERROR_STATUS).toBe(false);
  });
});
