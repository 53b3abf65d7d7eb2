// The paid gateway end to end, in process against real PostgreSQL and a real anvil chain: the official x402
// client pays over real HTTP, USDC moves on chain, and every refusal path answers its SERVICE.md error.
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { wrapFetchWithPayment } from "@x402/fetch";
import { describe, expect, it } from "vitest";
import * as gatewayRoute from "../../app/api/v1/[...path]/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { USDC_ADDRESS } from "../chain/config";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { verifyUpstreamRequest } from "../upstream-auth/signature";
import { registerLocalUpstream } from "./proxy-upstream";
import {
  callGateway,
  createGatewaySeller,
  officialX402Client,
  payChallenge,
  serveRoutes,
  usdcBalance,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../testing/gateway";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const PAY_TO = anvilAddress(10);

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);

function call(path: string, init: { method?: string; headers?: Record<string, string>; host?: string } = {}): Promise<Response> {
  return callGateway(init.host ?? seller.host, path, init);
}

const proofFor = (res: Response, payerIndex: number, v1 = false) => payChallenge(res, payerIndex, { v1 });

const AAPL = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-31";

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

describe("402 challenge", () => {
  it("answers an unpaid priced call with a signed x402 offer in the body and the PAYMENT-REQUIRED header", async () => {
    const res = await call(AAPL);
    expect(res.status).toBe(402);
    // no-transform: never compressed, by us or a proxy (create-challenge.ts: the CPU a flood of 402s would cost).
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    const body = await res.json();
    expect(body.error).toBe("payment_required");
    expect(body.payment).toMatchObject({
      amount: "0.020000",
      currency: "USD",
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      operation: "aggregates",
      meter: "aggregates",
    });
    expect(body.payment.id).toMatch(/^pay_/);
    expect(Date.parse(body.payment.expires_at)).toBeGreaterThan(Date.now());
    expect(body.card).toBeUndefined(); // $0.02 is under the $0.50 card floor
    expect(body.x402Version).toBe(1);
    expect(body.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "eip155:8453",
      asset: USDC_ADDRESS,
      payTo: PAY_TO,
      maxAmountRequired: "20000",
      extra: { name: "USD Coin", version: "2" },
    });
    const v2 = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
    expect(v2.x402Version).toBe(2);
    expect(v2.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "eip155:8453",
      asset: USDC_ADDRESS,
      amount: "20000",
      payTo: PAY_TO,
      extra: { name: "USD Coin", version: "2", paymentId: body.payment.id },
    });
    expect(upstream.state.calls).toBe(0);
  });

  it("adds the card block from $0.50 (backtest)", async () => {
    const res = await call("/api/v1/backtest/AAPL");
    const body = await res.json();
    expect(body.payment.amount).toBe("0.500000");
    expect(body.card.payUrl).toBe(`http://${seller.host}/payments/${body.payment.id}/pay`);
    expect(body.card.statusUrl).toBe(`http://${seller.host}/payments/${body.payment.id}`);
  });

  it("refuses bad parameters with a 400 before any charge, unknown paths with 404 and wrong methods with 405", async () => {
    const bad = await call("/api/v1/aggregates/AAPL?limit=50001");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_request", parameter: "limit" });
    const missing = await call("/api/v1/no-such-thing");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("not_found");
    const wrong = await call("/api/v1/aggregates/AAPL", { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toContain("GET");
  });

  it("answers 409 signing_secret_required for a seller without a signing secret", async () => {
    const s = await createGatewaySeller(upstream.url, { signingSecret: null });
    const res = await call(AAPL, { host: s.host });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("signing_secret_required");
  });

  it("answers 409 payout_address_required for a seller without a payout address, before any challenge", async () => {
    const s = await createGatewaySeller(upstream.url, { payTo: null });
    const res = await call(AAPL, { host: s.host });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "payout_address_required" });
    expect(upstream.state.calls).toBe(0);
  });
});

describe("paying with x402", () => {
  it("the official @x402/fetch client pays over real HTTP, gets the data, and the USDC moves on chain", async () => {
    const server = await serveRoutes(seller.host, (p) => (p.startsWith("/api/v1/") ? gatewayRoute : null));
    try {
      const payer = anvilAddress(1);
      const [before, sellerBefore] = [await usdc(payer), await usdc(PAY_TO)];
      const fetchWithPayment = wrapFetchWithPayment(fetch, officialX402Client(1));
      const res = await fetchWithPayment(`${server.url}${AAPL}`);
      expect(res.status).toBe(200);
      const data = await res.json();
      expect(data).toMatchObject({ ticker: "AAPL", source: "fake-upstream", path: "/aggregates/AAPL" });
      expect(data.query).toContain("from=2024-01-02");
      // The upstream builds links from the original host, and never sees the payment proof.
      expect(data.forwardedHost).toBe(seller.host);
      expect(upstream.state.lastHeaders["payment-signature"]).toBeUndefined();
      expect(upstream.state.lastHeaders["x-payment"]).toBeUndefined();
      const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      expect(receipt).toMatchObject({ success: true, network: "eip155:8453" });
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.headers.get("x-payment-response")).toBe(res.headers.get("payment-response"));
      expect(res.headers.get("svc-billing")).toContain("amount_usd=0.020000");
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(await usdc(payer)).toBe(before - 20_000n);
      expect(await usdc(PAY_TO)).toBe(sellerBefore + 20_000n);
      const paymentId = res.headers.get("svc-payment-id")!;
      const payment = await db.payment.findUniqueOrThrow({ where: { id: paymentId } });
      expect(payment).toMatchObject({ status: "consumed", payer: payer.toLowerCase(), transaction: receipt.transaction, amountMicros: 20_000n });
      const ledger = await db.ledgerEntry.findMany({ where: { paymentId } });
      expect(ledger).toMatchObject([{ kind: "charge", amountMicros: 20_000n, meterKey: "aggregates", units: 1 }]);
    } finally {
      await server.stop();
    }
  });

  it("a v1-style client (reads the body, sends X-PAYMENT) pays too", async () => {
    const payer = anvilAddress(2);
    const before = await usdc(payer);
    const proof = await proofFor(await call(AAPL), 2, true);
    expect(Object.keys(proof)).toEqual(["X-PAYMENT"]);
    const res = await call(AAPL, { headers: proof });
    expect(res.status).toBe(200);
    expect(await usdc(payer)).toBe(before - 20_000n);
    // The same v1 proof cannot buy another request.
    const other = await call("/api/v1/aggregates/MSFT", { headers: proof });
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe("payment_request_mismatch");
  });

  it("keeps only what it offered from a v2 proof's echoed offer: a client's extra fields (even a NUL) are dropped, not stored", async () => {
    const proof = await proofFor(await call(AAPL), 2);
    const payload = JSON.parse(Buffer.from(proof["PAYMENT-SIGNATURE"]!, "base64").toString());
    payload.accepted.extra = { ...payload.accepted.extra, note: "\u0000 not ours", name: "Not The Token" };
    const res = await call(AAPL, { headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") } });
    expect(res.status).toBe(200);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
    expect(payment.status).toBe("consumed");
    expect((payment.railData as { extra: Record<string, unknown> }).extra).toEqual({
      name: "USD Coin",
      version: "2",
      paymentId: payment.id,
      challenge: payload.accepted.extra.challenge,
      expiresAt: payload.accepted.extra.expiresAt,
    });
  });

  it("a paid answer's Server-Timing splits the time: phases, chain, db (inside own), own and total", async () => {
    const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 3) });
    expect(res.status).toBe(200);
    const timing = Object.fromEntries(
      (res.headers.get("server-timing") ?? "").split(",").map((part) => {
        const m = /^\s*(\w+);dur=([\d.]+)\s*$/.exec(part);
        expect(m, part).toBeTruthy();
        return [m![1], Number(m![2])];
      }),
    );
    expect(Object.keys(timing)).toEqual(["accept", "upstream", "schedule", "settle", "chain", "db", "own", "total"]);
    // Three statements at least (lock, the outbox row, the charge): some time, none of it more than the own work.
    expect(timing.db).toBeGreaterThan(0);
    expect(timing.db).toBeLessThanOrEqual(timing.own + 0.1);
    expect(timing.chain).toBeGreaterThan(0);
    expect(timing.own + timing.chain + timing.upstream).toBeLessThanOrEqual(timing.total + 0.3);
  });

  // Issue 23 changed this rule (resumable delivery): copies arriving after the charge are served again, never charged
  // again, where before they were refused `payment_consumed` ("... are served exactly once", and "replayed after
  // settlement, it is refused"). Issue 33 changed it again: a copy is served the answer that was kept, so the upstream
  // runs once however many copies are served (before: once per copy served, "calls - callsBefore = served.length").
  it("fifty concurrent requests carrying the same proof are charged exactly once and run the upstream once; each is served or told to wait", async () => {
    const payer = anvilAddress(3);
    const before = await usdc(payer);
    const proof = await proofFor(await call(AAPL), 3);
    const callsBefore = upstream.state.calls;
    const results = await Promise.all(Array.from({ length: 50 }, () => call(AAPL, { headers: proof })));
    const served = results.filter((r) => r.status === 200);
    // One charge: exactly one answer is the charge itself; any other 200 is a replay of it.
    expect(served.filter((r) => !r.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    expect(new Set(served.map((r) => r.headers.get("svc-payment-id"))).size).toBe(1);
    const errors = await Promise.all(results.filter((r) => r.status !== 200).map(async (r) => [r.status, (await r.json()).error]));
    for (const [status, code] of errors) {
      expect(status).toBe(409);
      expect(code).toBe("payment_in_progress");
    }
    expect(upstream.state.calls - callsBefore).toBe(1);
    // Every copy got the very bytes of the one answer.
    expect(new Set(await Promise.all(served.map((r) => r.clone().text()))).size).toBe(1);
    expect(await usdc(payer)).toBe(before - 20_000n);
    // ... and retried after settlement, it is served again: replay=true, the original payment, no second charge.
    const replay = await call(AAPL, { headers: proof });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ ticker: "AAPL" });
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect(replay.headers.get("svc-payment-id")).toBe(served[0]!.headers.get("svc-payment-id"));
    expect(replay.headers.get("svc-billing")).toMatch(/status=charged; replay=true; charged_at=.*; tx=0x/);
    expect(await usdc(payer)).toBe(before - 20_000n);
    const paymentId = replay.headers.get("svc-payment-id")!;
    expect(await db.ledgerEntry.count({ where: { paymentId } })).toBe(1);
    expect(await db.settlement.count({ where: { paymentId } })).toBe(1);
  });

  it("a proof made for one request gets payment_request_mismatch on another", async () => {
    const proof = await proofFor(await call(AAPL), 4);
    const res = await call("/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-02-29", { headers: proof });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("payment_request_mismatch");
    // Reordered query parameters are the same request.
    const same = await call("/api/v1/aggregates/AAPL?to=2024-01-31&from=2024-01-02", { headers: proof });
    expect(same.status).toBe(200);
  });

  it("a forged or garbled proof is refused without touching the upstream", async () => {
    const calls = upstream.state.calls;
    const res = await call(AAPL, { headers: { "X-PAYMENT": "bm90LWpzb24=" } });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: "payment_required", reason: "malformed_payment" });
    expect(upstream.state.calls).toBe(calls);
  });
});

describe("upstream outcomes", () => {
  it("an upstream 500 passes through and charges nothing; the payment is released", async () => {
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const payer = anvilAddress(5);
    const before = await usdc(payer);
    const proof = await proofFor(await call(AAPL), 5);
    const res = await call(AAPL, { headers: proof });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "boom" });
    expect(res.headers.get("svc-billing")).toContain("status=released");
    expect(await usdc(payer)).toBe(before);
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
    expect(payment.status).toBe("released");
    expect(await db.ledgerEntry.count({ where: { paymentId: payment.id } })).toBe(0);
    upstream.state.mode = { status: 200 };
    const again = await call(AAPL, { headers: proof });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("payment_released");
  });

  // Issue 23 changed this rule: a 4xx was charged before ("an upstream 4xx passes through unchanged and is charged").
  for (const [status, code] of [
    [404, "unknown_ticker"],
    [403, "not_included"],
  ] as const)
    it(`an upstream ${status} passes through unchanged and is not charged; svc-billing says why`, async () => {
      upstream.state.mode = { status, body: { error: code } };
      const payer = anvilAddress(5);
      const before = await usdc(payer);
      const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 5) });
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: code });
      expect(res.headers.get("payment-response")).toBeNull();
      expect(res.headers.get("svc-billing")).toMatch(
        new RegExp(`status=released; charged_usd=0\\.000000; reason=upstream_rejected; upstream_status=${status}`),
      );
      expect(await usdc(payer)).toBe(before);
      const payment = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
      expect(payment).toMatchObject({ status: "released", failureReason: "upstream_rejected", upstreamStatus: status });
      expect(await db.ledgerEntry.count({ where: { paymentId: payment.id } })).toBe(0);
    });

  it("an upstream 3xx is a success: charged", async () => {
    upstream.state.mode = { status: 304 };
    const payer = anvilAddress(5);
    const before = await usdc(payer);
    const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 5) });
    expect(res.status).toBe(304);
    expect(res.headers.get("svc-billing")).toContain("status=charged");
    expect(await usdc(payer)).toBe(before - 20_000n);
  });

  it("an upstream timeout is a 504 and charges nothing", async () => {
    await withEnvForTests({ GATEWAY_UPSTREAM_TIMEOUT_MS: "300" }, async () => {
      upstream.state.mode = { status: 200, delayMs: 1_000 };
      const payer = anvilAddress(6);
      const before = await usdc(payer);
      const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 6) });
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ error: "upstream_timeout" });
      expect(await usdc(payer)).toBe(before);
    });
  });

  it("a bad usage header still returns the body, flags svc-usage-error, and charges nothing", async () => {
    const payer = anvilAddress(7);
    const before = await usdc(payer);
    upstream.state.mode = { status: 200, usage: "aggregates=lots" };
    const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 7) });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-usage-error")).toBe("invalid_usage_header");
    expect((await res.json()).ticker).toBe("AAPL");
    upstream.state.mode = { status: 200, usage: "not_a_meter=1" };
    const unpriced = await call(AAPL, { headers: await proofFor(await call(AAPL), 7) });
    expect(unpriced.status).toBe(200);
    expect(unpriced.headers.get("svc-usage-error")).toBe("usage_not_priced");
    expect(await usdc(payer)).toBe(before);
  });

  it("a valid usage header is billed and recorded on the ledger", async () => {
    upstream.state.mode = { status: 200, usage: "aggregates=3" };
    const res = await call(AAPL, { headers: await proofFor(await call(AAPL), 7) });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-usage-error")).toBeNull();
    expect(res.headers.get("svc-billing")).toContain("units=3");
    // The usage report is between upstream and gateway; hop-by-hop headers stay on their hop.
    expect(res.headers.get("svc-usage")).toBeNull();
    expect(res.headers.get("connection")).toBeNull();
    const ledger = await db.ledgerEntry.findFirstOrThrow({ where: { paymentId: res.headers.get("svc-payment-id")! } });
    expect(ledger).toMatchObject({ units: 3, amountMicros: 20_000n });
  });
});

describe("an upstream served by this app", () => {
  it("is called in process, still signed and verified, with the same deadline and pay-only-for-success rule", async () => {
    // A service whose upstream URL is a path lives in this app: the gateway runs its handler in process.
    let calls = 0;
    let delayMs = 0;
    registerLocalUpstream("/local-upstream-for-tests", async (req) => {
      const url = new URL(req.url);
      const check = verifyUpstreamRequest(SECRET, { method: req.method, path: url.pathname, query: url.searchParams }, req.headers);
      if (!check.ok) return Response.json({ error: "invalid_upstream_signature" }, { status: 401 });
      calls++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return Response.json({ servedInProcess: true, path: url.pathname, forwardedHost: req.headers.get("x-forwarded-host") });
    });
    const s = await createGatewaySeller("/local-upstream-for-tests", { signingSecret: SECRET });
    await withEnvForTests({ PORT: "3999", GATEWAY_UPSTREAM_TIMEOUT_MS: "300" }, async () => {
      const payer = anvilAddress(4);
      const before = await usdc(payer);
      const ask = () => call(AAPL, { host: s.host });
      const res = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 4) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ servedInProcess: true, path: "/local-upstream-for-tests/aggregates/AAPL", forwardedHost: s.host });
      expect(calls).toBe(1);
      expect(await usdc(payer)).toBe(before - 20_000n);
      // Past the deadline: a 504, nothing charged, as over HTTP.
      delayMs = 1_000;
      const late = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 4) });
      expect(late.status).toBe(504);
      expect(await usdc(payer)).toBe(before - 20_000n);
    });
  });
});

/** Rate limits count in fixed one-minute windows: start a multi-request check well inside one. */
async function awayFromMinuteBoundary(marginMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}

/** The same proof with a different claimed `from`: the signature no longer belongs to the wallet it names. */
function claimingFrom(headers: Record<string, string>, from: string): Record<string, string> {
  const [name, value] = Object.entries(headers)[0]!;
  const payload = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  payload.payload.authorization.from = from;
  return { [name]: Buffer.from(JSON.stringify(payload)).toString("base64") };
}

describe("rate limits", () => {
  it("limits each payer wallet, counting paid calls across requests", async () => {
    await withEnvForTests({ RATE_LIMIT_PAYER_PER_MINUTE: "1" }, async () => {
      await awayFromMinuteBoundary();
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      const ask = () => call(AAPL, { host: s.host });
      const first = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 9) });
      expect(first.status).toBe(200);
      const second = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 9) });
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ error: "rate_limit_exceeded", scope: "payer" });
      // Another wallet is not affected.
      const other = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 8) });
      expect(other.status).toBe(200);
    });
  });

  it("spends a payer's budget only on proofs that wallet signed, so nobody can exhaust another wallet's", async () => {
    await withEnvForTests({ RATE_LIMIT_PAYER_PER_MINUTE: "1" }, async () => {
      await awayFromMinuteBoundary();
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      const ask = () => call(AAPL, { host: s.host });
      const victim = anvilAddress(9);
      // Wallet 7 signs, but the proof names wallet 9 as the payer: twice, past wallet 9's limit of 1.
      for (let i = 0; i < 2; i++) {
        const forged = await call(AAPL, { host: s.host, headers: claimingFrom(await proofFor(await ask(), 7), victim) });
        expect(forged.status).not.toBe(200);
        expect((await forged.json()).error).toBe("payment_required");
      }
      const own = await call(AAPL, { host: s.host, headers: await proofFor(await ask(), 9) });
      expect(own.status).toBe(200);
    });
  });

  // Issue 22: unpaid calls spend their client's budget, never the seller's ceiling, so they cannot lock payers out.
  it("answers 429 rate_limit_exceeded with retry_after and Retry-After past the per-client limit of unpaid calls, and still serves a valid proof", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "3", RATE_LIMIT_SELLER_PER_MINUTE: "3" }, async () => {
      await awayFromMinuteBoundary();
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      const statuses: number[] = [];
      const answers: Response[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await call(AAPL, { host: s.host });
        answers.push(res);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([402, 402, 402, 429]);
      const last = answers[3]!;
      const body = await last.json();
      expect(body).toMatchObject({ error: "rate_limit_exceeded", scope: "client", limit: 3 });
      expect(body.retry_after).toBeGreaterThan(0);
      expect(Number(last.headers.get("retry-after"))).toBe(body.retry_after);
      // Same client, budget spent, seller ceiling 3 passed by unpaid calls: a valid proof is served all the same.
      const paid = await call(AAPL, { host: s.host, headers: await proofFor(answers[0]!, 9) });
      expect(paid.status).toBe(200);
    });
  });

  it("counts only paying requests against the seller's ceiling: unpaid calls and refused proofs never fill it", async () => {
    await withEnvForTests({ RATE_LIMIT_SELLER_PER_MINUTE: "1" }, async () => {
      await awayFromMinuteBoundary();
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      const challenges: Response[] = [];
      for (let i = 0; i < 5; i++) challenges.push(await call(AAPL, { host: s.host }));
      expect(challenges.map((r) => r.status)).toEqual([402, 402, 402, 402, 402]);
      // A forged proof (wallet 7 signs, naming wallet 6) does not recover to a payer: anonymous, its unit never taken.
      const forged = await call(AAPL, { host: s.host, headers: claimingFrom(await proofFor(challenges[0]!, 7), anvilAddress(6)) });
      expect((await forged.json()).error).toBe("payment_required");
      // A valid signature sent with another request: its payer is known and spends a unit, given back on refusal.
      const mismatched = await call("/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-02-29", { host: s.host, headers: await proofFor(challenges[3]!, 9) });
      expect((await mismatched.json()).error).toBe("payment_request_mismatch");
      const first = await call(AAPL, { host: s.host, headers: await proofFor(challenges[1]!, 9) });
      expect(first.status).toBe(200);
      const second = await call(AAPL, { host: s.host, headers: await proofFor(challenges[2]!, 8) });
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ error: "rate_limit_exceeded", scope: "seller", limit: 1 });
    });
  });
});
