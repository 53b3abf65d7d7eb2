// One payment buys one answer, from a hostile buyer's side, in process against real PostgreSQL and a real anvil chain:
// a proof sent 200 times at once runs the upstream once and every copy gets the same bytes; retried 30 times later it
// still ran the upstream once; an answer too large to keep is delivered once and its replay refused (never run
// again); the seller's allowance bounds what is kept; the purge frees it with the window.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { withEnvForTests } from "../../env";
import {
  callGateway,
  createGatewaySeller,
  payOn,
  startGatewayStack,
  stopGatewayStack,
  type FakeUpstream,
  type GatewaySeller,
  type TestChain,
} from "../../testing/gateway";
import { deliveredAnswerBytes, purgeExpiredAnswers } from "./delivered-answers.queries";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-29";

const call = (headers: Record<string, string> = {}) => callGateway(seller.host, AAPL, { headers });

beforeAll(async () => {
  ({ chain, upstream, seller } = await startGatewayStack(SECRET));
}, 60_000);

afterAll(() => stopGatewayStack({ chain, upstream }));

beforeEach(() => {
  upstream.state.mode = { status: 200 };
});

describe("a paid request buys one answer", () => {
  it("200 copies of one proof in flight run the upstream once; every copy gets the same bytes; one charge", async () => {
    const proof = await payOn("x402", await call(), 4);
    // A slow upstream: every copy arrives while the first is being served.
    upstream.state.mode = { status: 200, delayMs: 400 };
    const before = upstream.state.calls;
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(proof)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(upstream.state.calls - before).toBe(1);
    const bodies = new Set(await Promise.all(answers.map((a) => a.text())));
    expect(bodies.size).toBe(1);
    expect(new Set(answers.map((a) => a.headers.get("svc-receipt"))).size).toBe(1);
    expect(answers.filter((a) => !a.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    const id = answers[0]!.headers.get("svc-payment-id")!;
    expect(await db.ledgerEntry.count({ where: { paymentId: id } })).toBe(1);
  }, 60_000);

  it("retried 30 times after it was served, the upstream is not called again and nothing new is stored", async () => {
    const proof = await payOn("mpp", await call(), 5);
    const first = await call(proof);
    expect(first.status).toBe(200);
    const bytes = await first.text();
    const kept = await deliveredAnswerBytes(seller.sellerId);
    const before = upstream.state.calls;
    for (let i = 0; i < 30; i++) {
      const again = await call(proof);
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(bytes);
    }
    expect(upstream.state.calls).toBe(before);
    expect(await deliveredAnswerBytes(seller.sellerId)).toBe(kept);
  });

  it("an answer over DELIVERED_ANSWER_MAX_BYTES is delivered once; its replay is refused answer_not_kept, never run again", async () => {
    await withEnvForTests({ DELIVERED_ANSWER_MAX_BYTES: "64" }, async () => {
      const proof = await payOn("x402", await call(), 6);
      const first = await call(proof);
      expect(first.status).toBe(200);
      const before = upstream.state.calls;
      const again = await call(proof);
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ error: "payment_consumed", reason: "answer_not_kept", not_kept: "too_large" });
      expect(upstream.state.calls).toBe(before);
    });
  });

  it("the seller's allowance bounds what is kept; the purge deletes answers past the window and gives their bytes back", async () => {
    const other = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    const path = (h: Record<string, string>) => callGateway(other.host, AAPL, { headers: h });
    // Room for about one answer.
    const first = await path(await payOn("x402", await path({}), 7));
    expect(first.status).toBe(200);
    const one = await deliveredAnswerBytes(other.sellerId);
    expect(one).toBeGreaterThan(0n);
    await withEnvForTests({ DELIVERED_ANSWERS_MAX_BYTES_PER_SELLER: String(Number(one) + 10) }, async () => {
      const proof = await payOn("x402", await path({}), 7);
      expect((await path(proof)).status).toBe(200);
      const refused = await path(proof);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ reason: "answer_not_kept", not_kept: "seller_full" });
      expect(await deliveredAnswerBytes(other.sellerId)).toBe(one);
    });
    // The window ends: the purge deletes them and the allowance is free again.
    await db.deliveredAnswer.updateMany({ where: { sellerId: other.sellerId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await purgeExpiredAnswers(1000)).toBeGreaterThanOrEqual(2);
    expect(await db.deliveredAnswer.count({ where: { sellerId: other.sellerId } })).toBe(0);
    expect(await deliveredAnswerBytes(other.sellerId)).toBe(0n);
  });

  it("an answer released (the upstream failed) is never kept for the payment's replay, and PAYMENT_REPLAY_HOURS=0 keeps none", async () => {
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const failed = await call(await payOn("x402", await call(), 8));
    expect(failed.status).toBe(500);
    expect(await db.deliveredAnswer.count({ where: { paymentId: failed.headers.get("svc-payment-id")! } })).toBe(0);
    upstream.state.mode = { status: 200 };
    await withEnvForTests({ PAYMENT_REPLAY_HOURS: "0" }, async () => {
      const served = await call(await payOn("x402", await call(), 8));
      expect(served.status).toBe(200);
      expect(await db.deliveredAnswer.count({ where: { paymentId: served.headers.get("svc-payment-id")! } })).toBe(0);
    });
  });
});
