// The 402 funnel against the real gateway: a scripted mix of unpaid, mismatched, malformed, replayed, rate-limited,
// released and paid calls (x402 v2 and v1, MPP) through the route handler, on a real chain, counted back exactly (the
// 402s from the flushed challenge counts: they write no row); the counts survive the reconciler; each charge carries the gas its settlement
// transaction paid (checked against the receipt); and a paid call sends the same statements as before analytics.
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { publicClient } from "../chain/clients";
import { db, sql } from "../db/client";
import { withEnvForTests } from "../env";
import { reconcileOnce } from "../payments/reconciler";
import { flushChallengeCounts } from "./challenge-counts";
import {
  callGateway,
  createGatewaySeller,
  payChallenge,
  payOn,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../testing/gateway";
import { getFunnel } from "./get-funnel";
import { getMargin } from "./get-margin";
import { getOverview } from "./get-overview";

const SECRET = "fake-upstream-secret-0123456789";
const A = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-31";
const B = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-02-29";
const week = { preset: "7d" as const };

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

const call = (path: string, headers?: Record<string, string>, host = seller.host) => callGateway(host, path, { headers });
async function expectStatus(res: Response, status: number, error?: string) {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  if (error) expect(JSON.parse(body).error).toBe(error);
}

describe("the 402 funnel", () => {
  it("counts a scripted mix of calls exactly, per step, operation, rail and reason", async () => {
    // 3 unpaid calls: a 402 each, no proof ever.
    for (let i = 0; i < 3; i++) await expectStatus(await call(A), 402);
    // 2 mismatched: a proof made for A sent with B.
    for (let i = 0; i < 2; i++) await expectStatus(await call(B, await payChallenge(await call(A), 1)), 409, "payment_request_mismatch");
    // 1 malformed proof (no challenge asked for).
    await expectStatus(await call(A, { "X-PAYMENT": "bm90LWpzb24=" }), 402, "payment_required");
    // 2 paid x402 calls, then one of their proofs replayed.
    const paid = await payChallenge(await call(A), 2);
    await expectStatus(await call(A, paid), 200);
    await expectStatus(await call(A, await payChallenge(await call(A), 3)), 200);
    // (Resumable delivery would serve it again: turned off here, so the refusal is counted.)
    await withEnvForTests({ PAYMENT_REPLAY_HOURS: "0" }, async () => expectStatus(await call(A, paid), 409, "payment_consumed"));
    // 1 paid on MPP.
    await expectStatus(await call(A, await payOn("mpp", await call(A), 4)), 200);
    // 1 released: the upstream answers 500, nothing is charged.
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    await expectStatus(await call(A, await payChallenge(await call(A), 5)), 500);
    upstream.state.mode = { status: 200 };
    // 1 x402 v1 client: it pays the 402's body, not the challenge (its challenge stays unpaid), born verified.
    await expectStatus(await call(A, await payChallenge(await call(A), 6, { v1: true })), 200);

    // Issue 22: a 402 writes no row; this instance's counts of them reach the funnel when flushed (every few seconds).
    await flushChallengeCounts();
    const f = await getFunnel(seller.sellerId, week);
    // Challenges: 3 unpaid + 2 answered by mismatched proofs + 2 paid + 1 MPP + 1 released + 1 answered by v1 = 10.
    expect(f.steps).toEqual({
      issued: 10,
      neverPaid: 6,
      proofs: 9,
      refused: 4,
      verified: 5,
      released: 1,
      beingServed: 0,
      served: 4,
      failed: 0,
      settling: 0,
      settled: 4,
    });
    expect(f.reasons).toEqual([
      { step: "proof", code: "payment_request_mismatch", count: 2 },
      { step: "proof", code: "payment_consumed", count: 1 },
      { step: "proof", code: "payment_required", count: 1 },
      { step: "serve", code: "upstream_error", count: 1 },
    ]);
    expect(f.byRail.find((r) => r.rail === "x402")).toMatchObject({ proofs: 8, refused: 4, verified: 4, released: 1, served: 3, settled: 3 });
    expect(f.byRail.find((r) => r.rail === "mpp")).toMatchObject({ proofs: 1, refused: 0, verified: 1, served: 1, settled: 1 });
    expect(f.byOperation).toEqual([expect.objectContaining({ operation: "aggregates", issued: 10, settled: 4, conversionPercent: "40.0" })]);

    // Issue 22 (stateless challenges): the 6 unpaid challenges have no row; the 10 402s are counted in challenge_counts,
    // and the reconciler has nothing of theirs to delete. The funnel is the same after it runs.
    expect(await db.payment.count({ where: { sellerId: seller.sellerId, status: "challenged" } })).toBe(0);
    expect(await db.challengeCount.findMany({ where: { sellerId: seller.sellerId }, select: { operationKey: true, count: true } })).toEqual([
      { operationKey: "aggregates", count: 10 },
    ]);
    await sql(`update payments set expires_at = expires_at - interval '25 hours' where seller_id = $1`, [seller.sellerId]);
    await reconcileOnce();
    expect(await db.expiredChallengeCount.count({ where: { sellerId: seller.sellerId } })).toBe(0);
    expect((await getFunnel(seller.sellerId, week)).steps).toEqual(f.steps);
    // Run again: nothing left to delete, nothing counted twice.
    await reconcileOnce();
    expect((await getFunnel(seller.sellerId, week)).steps).toEqual(f.steps);
  });

  // Issue 22: the seller's ceiling counts paying requests only, so the refused proof is one over it after a paid call.
  it("records a proof refused by the rate limit, with its rail", async () => {
    await withEnvForTests({ RATE_LIMIT_SELLER_PER_MINUTE: "1", RATE_LIMIT_CLIENT_PER_MINUTE: "2" }, async () => {
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      const first = await call(A, undefined, s.host);
      const second = await call(A, undefined, s.host);
      expect([first.status, second.status]).toEqual([402, 402]);
      await expectStatus(await call(A, await payChallenge(first, 6), s.host), 200);
      await expectStatus(await call(A, await payChallenge(second, 7), s.host), 429, "rate_limit_exceeded");
      // An unpaid call over the client's limit carries no proof: not a funnel refusal.
      await expectStatus(await call(A, undefined, s.host), 429, "rate_limit_exceeded");
      await flushChallengeCounts();
      const f = await getFunnel(s.sellerId, week);
      expect(f.steps).toMatchObject({ issued: 2, neverPaid: 1, proofs: 2, refused: 1, verified: 1 });
      expect(f.reasons).toEqual([{ step: "proof", code: "rate_limit_exceeded", count: 1 }]);
      expect(f.byRail.find((r) => r.rail === "x402")).toMatchObject({ refused: 1 });
    });
  });

  it("records each charge's gas from its settlement receipt, and the overview and margin read the ledger", async () => {
    const charges = await db.ledgerEntry.findMany({
      where: { sellerId: seller.sellerId, kind: "charge" },
      select: { gasCostWei: true, rail: true, operationKey: true, payer: true, payment: { select: { transaction: true, payer: true, rail: true } } },
    });
    expect(charges).toHaveLength(4);
    let total = 0n;
    for (const c of charges) {
      const receipt = await publicClient(chain.rpcUrl).getTransactionReceipt({ hash: c.payment.transaction as `0x${string}` });
      const gas = receipt.gasUsed * receipt.effectiveGasPrice;
      expect(gas).toBeGreaterThan(0n);
      expect(BigInt(c.gasCostWei!.toFixed())).toBe(gas);
      total += gas;
      // The ledger row copies who paid, on which rail, for which operation.
      expect(c).toMatchObject({ rail: c.payment.rail, payer: c.payment.payer, operationKey: "aggregates" });
    }
    const o = await getOverview(seller.sellerId, { preset: "today" });
    expect(o.totals).toMatchObject({ paidCalls: 4, netUsd: "0.080000", wallets: 4 });
    expect(o.headline.today.netUsd).toBe("0.080000");
    const m = await getMargin(seller.sellerId, { preset: "today" });
    expect(m.total).toMatchObject({ calls: 4, gasKnown: 4, costKnownForAll: true });
    expect(m.total.gasEth).toBe(
      (() => {
        const s = total.toString().padStart(19, "0");
        return `${s.slice(0, -18)}.${s.slice(-18).replace(/0+$/, "") || "0"}`;
      })(),
    );
  });

  it("a paid call sends exactly the statements it sent before analytics, none of them to an analytics table", async () => {
    const proof = await payChallenge(await call(A), 8);
    // The 402's count is flushed now, so the periodic flush has nothing to send while the paid call is watched.
    await flushChallengeCounts();
    const texts: string[] = [];
    const original = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as string | { text?: string };
      texts.push(typeof q === "string" ? q : (q?.text ?? ""));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    try {
      await expectStatus(await call(A, proof), 200);
    } finally {
      spy.mockRestore();
    }
    const statements = texts.filter((t) => !/^(begin|commit|rollback)\b/i.test(t.trim()));
    expect(statements.filter((t) => /payment_refusals|expired_challenge_counts|challenge_counts/.test(t))).toEqual([]);
    // The rate-limit lease (limits are on in tests; issue 22: a new payer's first units, with the seller's if this
    // instance holds none, in one statement), the lock (issue 22: the payment row written from the signed challenge id,
    // already verified, in one statement that updates a challenge row instead where one exists), the outbox row, and the settlement
    // with its ledger row in one statement: as before analytics (the ledger row's extra columns ride in that
    // statement). Adding a statement here adds work to every paid call: make that a decision, not an accident. Issue 33
    // decided one: the answer kept for re-delivery (`with room as`), sent at the same time as the outbox row.
    const firsts = statements.map((t) => t.trim().split(/\s+/).slice(0, 3).join(" "));
    expect(firsts).toHaveLength(5);
    expect(firsts.slice(0, 2)).toEqual(["with req (k,", "with p as"]);
    expect(firsts.slice(2, 4).sort()).toEqual(["with p as", "with room as"]);
    expect(firsts[4]).toBe("with s as");
    expect(statements[1]).toMatch(/^with p as \(\s+insert into payments/);
  });
});
