// The MPP rail end to end, in process against real PostgreSQL and a real anvil chain: the official mppx client
// pays over real HTTP, USDC moves on chain, and every refusal answers its SERVICE.md error as RFC 9457 problem
// details with a fresh challenge (and never a receipt).
import { Challenge, Receipt } from "mppx";
import { describe, expect, it, vi } from "vitest";
import * as gatewayRoute from "../../../../app/api/v1/[...path]/route";
import * as quoteRoute from "../../../../app/vendor/agent/quote/route";
import { randomBytes } from "node:crypto";
import { privateKeyToAccount } from "viem/accounts";
import { anvilAddress, anvilPrivateKey } from "../../../../scripts/lib/local-chain";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "../../../chain/config";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../../chain/transfer-authorization-hash";
import { invalidateSeller } from "../../../catalog/resolve-seller";
import { db } from "../../../db/client";
import {
  callGateway,
  officialMppClient,
  payChallenge,
  payChallengeMpp,
  serveRoutes,
  usdcBalance,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../../../testing/gateway";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const PAY_TO = anvilAddress(10);
const AAPL = "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31";

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);
const call = (path: string, init: { method?: string; headers?: Record<string, string>; host?: string } = {}) =>
  callGateway(init.host ?? seller.host, path, init);
const challenges = (res: Response) => Challenge.fromHeadersList(res.headers);

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

/** A refusal of an MPP credential: problem details with our error code, a fresh challenge, no receipt. */
async function expectProblem(res: Response, status: number, error: string, problem: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(res.headers.get("payment-receipt")).toBeNull();
  const fresh = challenges(res);
  expect(fresh).toHaveLength(1);
  expect(fresh[0]).toMatchObject({ method: "evm", intent: "charge", realm: seller.host });
  expect(res.headers.get("payment-required")).toBeTruthy();
  const body = await res.json();
  expect(body).toMatchObject({ error, type: `https://paymentauth.org/problems/${problem}`, status });
  expect(body.payment.id).toMatch(/^pay_/);
  return body;
}

describe("the 402 offers MPP beside x402", () => {
  it("carries a WWW-Authenticate Payment challenge (evm charge, USDC on Base, realm = the host) bound to the payment", async () => {
    const res = await call(AAPL);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.payment.rails).toEqual(["x402", "x402-batch", "mpp", "credits"]);
    expect(res.headers.get("payment-required")).toBeTruthy();
    const [c, ...more] = challenges(res);
    expect(more).toHaveLength(0);
    expect(c).toMatchObject({ method: "evm", intent: "charge", realm: seller.host, description: expect.any(String) });
    expect(c!.request).toMatchObject({
      amount: "20000",
      currency: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      recipient: PAY_TO,
      methodDetails: { chainId: 8453, decimals: 6 },
    });
    // The challenge expires with the payment it pays for.
    expect(new Date(c!.expires!).toISOString()).toBe(body.payment.expires_at);
    expect(res.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });
});

describe("paying with MPP", () => {
  it("the official mppx client pays over real HTTP, gets the data with a Payment-Receipt, and the USDC moves on chain", async () => {
    const server = await serveRoutes(seller.host, (p) => (p.startsWith("/api/v1/") ? gatewayRoute : null));
    try {
      const payer = anvilAddress(1);
      const [before, sellerBefore] = [await usdc(payer), await usdc(PAY_TO)];
      const res = await (await officialMppClient(1)).fetch(`${server.url}${AAPL}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ticker: "AAPL", source: "fake-upstream" });
      expect(upstream.state.lastHeaders.authorization).toBeUndefined();
      const receipt = Receipt.fromResponse(res);
      expect(receipt).toMatchObject({ status: "success", method: "evm", chainId: 8453 });
      expect(receipt.reference).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.headers.get("svc-billing")).toMatch(/rail=mpp;.*amount_usd=0\.020000; status=charged/);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(await usdc(payer)).toBe(before - 20_000n);
      expect(await usdc(PAY_TO)).toBe(sellerBefore + 20_000n);
      const payment = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
      expect(payment).toMatchObject({ status: "consumed", rail: "mpp", payer: payer.toLowerCase(), transaction: receipt.reference });
      expect(await db.ledgerEntry.findMany({ where: { paymentId: payment.id } })).toMatchObject([{ kind: "charge", amountMicros: 20_000n }]);
    } finally {
      await server.stop();
    }
  });

  // Issue 23 changed this rule (resumable delivery): before, copies after the charge and the later replay were refused
  // `payment_consumed` ("... are served once and settled once; a replay gets the terminal error").
  it("a hundred concurrent copies of one credential are charged once and settled once; each is served or told to wait; a retry is served again", async () => {
    const payer = anvilAddress(2);
    const before = await usdc(payer);
    const credential = await payChallengeMpp(await call(AAPL), 2);
    const callsBefore = upstream.state.calls;
    const results = await Promise.all(Array.from({ length: 100 }, () => call(AAPL, { headers: credential })));
    const served = results.filter((r) => r.status === 200);
    expect(served.filter((r) => !r.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      const body = await expectProblem(r, 409, (await r.clone().json()).error, "invalid-challenge");
      expect(body.error).toBe("payment_in_progress");
    }
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect(await usdc(payer)).toBe(before - 20_000n);
    const paymentId = served[0]!.headers.get("svc-payment-id")!;
    expect(await db.settlement.count({ where: { paymentId } })).toBe(1);
    const replay = await call(AAPL, { headers: credential });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("svc-payment-id")).toBe(paymentId);
    expect(replay.headers.get("svc-billing")).toContain("replay=true");
    // The receipt of the one charge, again.
    expect(Receipt.fromResponse(replay).reference).toBe(Receipt.fromResponse(served[0]!).reference);
    expect(await usdc(payer)).toBe(before - 20_000n);
    expect(await db.ledgerEntry.count({ where: { paymentId } })).toBe(1);
  });

  it("a credential made for one request gets payment_request_mismatch on another, and nothing is charged", async () => {
    const payer = anvilAddress(3);
    const before = await usdc(payer);
    const credential = await payChallengeMpp(await call(AAPL), 3);
    await expectProblem(
      await call("/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-06-28", { headers: credential }),
      409,
      "payment_request_mismatch",
      "invalid-challenge",
    );
    // Reordered query parameters are the same request.
    expect((await call("/api/v1/aggregates/AAPL?to=2024-05-31&from=2024-05-01", { headers: credential })).status).toBe(200);
    expect(await usdc(payer)).toBe(before - 20_000n);
  });

  it("an upstream 500 passes through, releases the payment and charges nothing; the credential is then spent", async () => {
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const payer = anvilAddress(4);
    const before = await usdc(payer);
    const credential = await payChallengeMpp(await call(AAPL), 4);
    const res = await call(AAPL, { headers: credential });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "boom" });
    expect(res.headers.get("payment-receipt")).toBeNull();
    expect(res.headers.get("svc-billing")).toContain("status=released");
    expect(await usdc(payer)).toBe(before);
    expect((await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } })).status).toBe("released");
    upstream.state.mode = { status: 200 };
    await expectProblem(await call(AAPL, { headers: credential }), 409, "payment_released", "invalid-challenge");
  });

  it("an upstream 404 passes through and charges nothing: no receipt, released, svc-billing says why", async () => {
    upstream.state.mode = { status: 404, body: { error: "unknown_ticker" } };
    const payer = anvilAddress(4);
    const before = await usdc(payer);
    const res = await call(AAPL, { headers: await payChallengeMpp(await call(AAPL), 4) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "unknown_ticker" });
    expect(res.headers.get("payment-receipt")).toBeNull();
    expect(res.headers.get("svc-billing")).toMatch(/status=released; charged_usd=0\.000000; reason=upstream_rejected; upstream_status=404/);
    expect(await usdc(payer)).toBe(before);
    expect((await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } })).status).toBe("released");
  });

  it("refuses a tampered credential (terms, signature) and an expired challenge, each with a fresh challenge", async () => {
    const payer = anvilAddress(5);
    const before = await usdc(payer);
    const authorization = (await payChallengeMpp(await call(AAPL), 5)).authorization!;
    const decoded = JSON.parse(Buffer.from(authorization.slice("Payment ".length), "base64url").toString());
    const encode = (v: unknown) => `Payment ${Buffer.from(JSON.stringify(v)).toString("base64url")}`;
    // The challenge's amount changed: its HMAC id no longer matches.
    const cheaper = structuredClone(decoded);
    cheaper.challenge.request = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(decoded.challenge.request, "base64url").toString()), amount: "1" }),
    ).toString("base64url");
    await expectProblem(await call(AAPL, { headers: { authorization: encode(cheaper) } }), 402, "payment_required", "invalid-challenge");
    // Someone else's address in the signed authorization: the signature no longer recovers to it.
    const forged = structuredClone(decoded);
    forged.payload.from = anvilAddress(6);
    const body = await expectProblem(await call(AAPL, { headers: { authorization: encode(forged) } }), 402, "payment_required", "verification-failed");
    expect(body.reason).toBe("verification_failed");
    // Ten minutes later the challenge has expired.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 600_000 });
    try {
      const late = await expectProblem(await call(AAPL, { headers: { authorization } }), 402, "payment_required", "payment-expired");
      expect(late.reason).toBe("challenge_expired");
    } finally {
      vi.useRealTimers();
    }
    expect(await usdc(payer)).toBe(before);
  });

  it("a credential mppx refuses leaves no lock behind (bad signatures, a transfer signed for something else); the genuine one then pays", async () => {
    const payer = anvilAddress(7);
    const before = await usdc(payer);
    const authorization = (await payChallengeMpp(await call(AAPL), 7)).authorization!;
    const decoded = JSON.parse(Buffer.from(authorization.slice("Payment ".length), "base64url").toString());
    const sig: string = decoded.payload.signature;
    const withSignature = (signature: string) => {
      const v = structuredClone(decoded);
      v.payload.signature = signature;
      return `Payment ${Buffer.from(JSON.stringify(v)).toString("base64url")}`;
    };
    const calls = upstream.state.calls;
    // The other recovery id: a valid signature of someone else. And an r that is no point's x: a signature of no one
    // (mppx lets that recovery's error escape; it must be a refusal, not a 500).
    const otherSigner = withSignature(`${sig.slice(0, -2)}${sig.endsWith("1b") ? "1c" : "1b"}`);
    const noSigner = withSignature(`${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11)}`);
    // A transfer the payer really signed, that the chain would settle, but not for this challenge (its nonce is not
    // the challenge's hash): only mppx refuses it, after the lock was taken, and the lock must go.
    const p = decoded.payload;
    const nonce = `0x${randomBytes(32).toString("hex")}` as const;
    const elsewhere = structuredClone(decoded);
    elsewhere.payload.nonce = nonce;
    elsewhere.payload.signature = await privateKeyToAccount(anvilPrivateKey(7)).signTypedData({
      domain: { ...USDC_DOMAIN, chainId: CHAIN_ID, verifyingContract: USDC_ADDRESS },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: "TransferWithAuthorization",
      message: { from: p.from, to: p.to, value: BigInt(p.value), validAfter: BigInt(p.validAfter), validBefore: BigInt(p.validBefore), nonce },
    });
    const notThisChallenge = `Payment ${Buffer.from(JSON.stringify(elsewhere)).toString("base64url")}`;
    for (const authorization of [otherSigner, noSigner, notThisChallenge]) {
      const refusedBody = await expectProblem(await call(AAPL, { headers: { authorization } }), 402, "payment_required", "verification-failed");
      expect(refusedBody.reason).toBe("verification_failed");
    }
    expect(upstream.state.calls).toBe(calls);
    const paid = await call(AAPL, { headers: { authorization } });
    expect(paid.status).toBe(200);
    expect(await usdc(payer)).toBe(before - 20_000n);
  });

  it("refuses a credential whose price changed since its challenge (terms_changed), and charges nothing", async () => {
    const payer = anvilAddress(6);
    const before = await usdc(payer);
    const credential = await payChallengeMpp(await call(AAPL), 6);
    const meter = await db.meter.findFirstOrThrow({ where: { sellerId: seller.sellerId, key: "aggregates" } });
    const setPrice = async (amountMicros: bigint) => {
      await db.price.update({ where: { meterId: meter.id }, data: { amountMicros } });
      await db.seller.update({ where: { id: seller.sellerId }, data: { catalogVersion: { increment: 1 } } });
      // As the console's price change does: this instance drops its cached seller at once (others are notified).
      invalidateSeller(seller.sellerId);
    };
    await setPrice(30_000n);
    try {
      // As mppx itself answers a credential that no longer matches the route's requirements.
      const body = await expectProblem(await call(AAPL, { headers: credential }), 402, "payment_required", "invalid-challenge");
      expect(body.reason).toBe("terms_changed");
      // The fresh challenge asks for the new price.
      expect(body.payment).toMatchObject({ amount: "0.030000" });
    } finally {
      await setPrice(20_000n);
    }
    expect(await usdc(payer)).toBe(before);
  });

  it("refuses malformed credentials as problem details with a fresh challenge", async () => {
    for (const value of [
      "Payment",
      "Payment !!!",
      "Payment bm90LWpzb24",
      `Payment ${Buffer.from(JSON.stringify({ challenge: {}, payload: {} })).toString("base64url")}`,
    ]) {
      const body = await expectProblem(await call(AAPL, { headers: { authorization: value } }), 402, "payment_required", "malformed-credential");
      expect(body.reason).toBe("malformed_credential");
    }
  });
});

describe("one credential per request", () => {
  it("an MPP credential and an x402 proof together are refused with 400 naming both, and nothing is charged", async () => {
    const payer = anvilAddress(7);
    const before = await usdc(payer);
    const res402 = await call(AAPL);
    const [x402, mpp] = [await payChallenge(res402.clone(), 7), await payChallengeMpp(res402, 7)];
    const res = await call(AAPL, { headers: { ...x402, ...mpp } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: "invalid_request", reason: "multiple_payment_proofs" });
    expect(body.detail).toContain("x402");
    expect(body.detail).toContain("mpp");
    expect(await usdc(payer)).toBe(before);
  });

  it("a comma-combined Authorization is refused before any rail parses it", async () => {
    const mpp = await payChallengeMpp(await call(AAPL), 7);
    const res = await call(AAPL, { headers: { authorization: `${mpp.authorization}, Bearer abc.def.ghi` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_token", reason: "combined_authorization_unsupported" });
  });
});

describe("the free quote", () => {
  it("accepts an MPP $0 proof from the official client and names the wallet; nothing moves", async () => {
    const payer = anvilAddress(8);
    const before = await usdc(payer);
    const quote = (headers: Record<string, string> = {}) =>
      quoteRoute.POST(
        new Request(`http://${seller.host}/vendor/agent/quote`, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json", ...headers },
          body: JSON.stringify({ goal: "daily AAPL bars" }),
        }),
        { params: Promise.resolve({}) },
      );
    const first = await quote();
    expect(first.status).toBe(402);
    expect(challenges(first.clone())[0]!.request).toMatchObject({ amount: "0" });
    const res = await quote(await payChallengeMpp(first, 8));
    expect(res.status).toBe(200);
    expect((await res.json()).wallet).toBe(payer);
    expect(await usdc(payer)).toBe(before);
  });
});
