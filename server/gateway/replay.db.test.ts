// Resumable delivery on the wallet rails, in process against real PostgreSQL and a real anvil chain: the same request
// retried with the same proof of a charged payment is served again and never charged again, for as long as the replay
// window lasts (the challenge's own few minutes do not matter); a proof rebuilt from what the chain shows does not
// replay; a replay is served the answer that was kept, without calling the upstream, releasing or charging anything.
import { afterEach, describe, expect, it, vi } from "vitest";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import type { StoredAuthorization } from "../payments/eip3009/authorization";
import { callGateway, payChallenge, payOn, usdcBalance, useGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../testing/gateway";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);
const call = (path: string, headers: Record<string, string> = {}) => callGateway(seller.host, path, { headers });

/** Pretend the retry comes `ms` later than now (the challenge's expiry and the replay window are read from Date.now). */
function later(ms: number): void {
  const now = Date.now();
  vi.spyOn(Date, "now").mockImplementation(() => now + ms);
}

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(["x402", "mpp"] as const)("resumable delivery, %s", (rail) => {
  it("a retry after the challenge expired is served again within the window, charged once; past the window it is not served", async () => {
    const payer = anvilAddress(1);
    const before = await usdc(payer);
    const proof = await payOn(rail, await call(AAPL), 1);
    const first = await call(AAPL, proof);
    expect(first.status).toBe(200);
    const paymentId = first.headers.get("svc-payment-id")!;
    const { transaction } = await db.payment.findUniqueOrThrow({ where: { id: paymentId } });

    later(10 * 60_000);
    const again = await call(AAPL, proof);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ticker: "AAPL" });
    expect(again.headers.get("svc-payment-id")).toBe(paymentId);
    expect(again.headers.get("svc-billing")).toMatch(
      new RegExp(`rail=${rail};.*amount_usd=0\\.020000; status=charged; replay=true; charged_at=.*; tx=${transaction}`),
    );
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    vi.restoreAllMocks();

    later(25 * 3_600_000);
    const expired = await call(AAPL, proof);
    expect(expired.status).not.toBe(200);
    vi.restoreAllMocks();
    expect(await usdc(payer)).toBe(before - 20_000n);
    expect(await db.ledgerEntry.count({ where: { paymentId } })).toBe(1);
  });

  it("the window is a setting: 0 turns replays off (payment_consumed, as before)", async () => {
    const proof = await payOn(rail, await call(AAPL), 1);
    expect((await call(AAPL, proof)).status).toBe(200);
    await withEnvForTests({ PAYMENT_REPLAY_HOURS: "0" }, async () => {
      const res = await call(AAPL, proof);
      expect(res.status).toBe(409);
      expect((await res.json()).error).toBe("payment_consumed");
    });
  });

  // Issue 33 changed this rule: a replay used to call the upstream again and pass whatever it answered through ("a replay
  // passes the upstream's answer through, even an error"). Now it is served the answer that was paid for, kept when it
  // was delivered, and the upstream is not called at all, whatever it would answer now.
  it("a replay is served the kept answer (status, headers, bytes), never the upstream again, and neither charges nor releases anything", async () => {
    const payer = anvilAddress(2);
    const before = await usdc(payer);
    const proof = await payOn(rail, await call(AAPL), 2);
    const first = await call(AAPL, proof);
    expect(first.status).toBe(200);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const paymentId = first.headers.get("svc-payment-id")!;
    const calls = upstream.state.calls;
    upstream.state.mode = { status: 503, body: { error: "down" } };
    const again = await call(AAPL, proof);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(again.headers.get("svc-billing")).toContain("replay=true");
    expect(again.headers.get("svc-receipt")).toBe(first.headers.get("svc-receipt"));
    expect(upstream.state.calls).toBe(calls);
    expect((await db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("consumed");
    expect(await usdc(payer)).toBe(before - 20_000n);
  });

  it("a proof for another request stays payment_request_mismatch", async () => {
    const proof = await payOn(rail, await call(AAPL), 2);
    expect((await call(AAPL, proof)).status).toBe(200);
    const other = await call("/api/v1/aggregates/MSFT?from=2024-07-01&to=2024-07-31", proof);
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe("payment_request_mismatch");
  });

  it("a released payment (the upstream failed) is not served again", async () => {
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const proof = await payOn(rail, await call(AAPL), 2);
    expect((await call(AAPL, proof)).status).toBe(500);
    upstream.state.mode = { status: 200 };
    const again = await call(AAPL, proof);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("payment_released");
  });
});

describe("what never replays (x402)", () => {
  it("a v1 proof binds no request, so it is not served again", async () => {
    const proof = await payChallenge(await call(AAPL), 3, { v1: true });
    expect((await call(AAPL, proof)).status).toBe(200);
    const again = await call(AAPL, proof);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("payment_consumed");
  });

  it("a proof rebuilt from what the chain shows (signer, nonce, signature) is not served again: the challenge token is missing", async () => {
    const paid = await call(AAPL, await payChallenge(await call(AAPL), 3));
    expect(paid.status).toBe(200);
    const row = await db.payment.findUniqueOrThrow({ where: { id: paid.headers.get("svc-payment-id")! } });
    const stored = row.railData as unknown as StoredAuthorization;
    const v1 = { x402Version: 1, scheme: "exact", network: "base", payload: { signature: stored.signature, authorization: stored.authorization } };
    const forged = await call(AAPL, { "X-PAYMENT": Buffer.from(JSON.stringify(v1)).toString("base64") });
    expect(forged.status).toBe(409);
    expect((await forged.json()).error).toBe("payment_consumed");
  });
});
