// Stateless challenges (issue 22, docs/challenges.md) at the statements: a signed id with no row reads as its unpaid
// challenge; whatever acts on it first writes the row, in one statement, and many racers still make one payment and
// one lock; an undone lock deletes the row it wrote; an expired or foreign id writes nothing; the counts of 402s add up
// across concurrent flushes.
import { beforeAll, describe, expect, it } from "vitest";
import { flushChallengeCounts, countChallengeIssued } from "../analytics/challenge-counts";
import { db } from "../db/client";
import { registerAnonymous, routedStore } from "../testing/identity-harness";
import { createGatewaySeller, type GatewaySeller } from "../testing/gateway";
import { signChallengeId, type ChallengeTerms } from "./challenge-id";
import { findPayment } from "./payments.queries";
import { lockChallengedPayment, unlockUnverifiedPayment, type Lock } from "./locks.queries";
import { startCheckout } from "./rails/card/card.queries";

let seller: GatewaySeller;
let other: GatewaySeller;

beforeAll(async () => {
  seller = await createGatewaySeller("http://127.0.0.1:9");
  other = await createGatewaySeller("http://127.0.0.1:9");
});

function terms(over: Partial<ChallengeTerms> = {}): ChallengeTerms {
  const now = Math.floor(Date.now() / 1000);
  return {
    sellerId: seller.sellerId,
    method: "GET",
    path: "/api/v1/backtest/AAPL",
    query: "years=2",
    amountMicros: 500_000n,
    operationKey: "backtest",
    meterKey: "backtest",
    issuedAt: now,
    expiresAt: now + 300,
    credentialId: null,
    purchase: null,
    ...over,
  };
}

const lock = (key: string): Lock => ({ rail: "x402", lockKey: `test:${key}`, payer: "0xabc", railData: { k: key }, leaseSeconds: 30, payTo: "0xpayto" });

describe("a signed challenge id", () => {
  it("reads as its unpaid challenge while nothing acted on it, and writes nothing", async () => {
    const id = signChallengeId(terms());
    expect(await findPayment(seller.sellerId, id)).toMatchObject({
      id,
      status: "challenged",
      amountMicros: 500_000n,
      path: "/api/v1/backtest/AAPL",
      query: "years=2",
      fromChallenge: true,
      rail: null,
    });
    expect(await findPayment(other.sellerId, id)).toBeNull();
    expect(await db.payment.findUnique({ where: { id } })).toBeNull();
  });

  it("50 concurrent locks with 50 different proofs: one payment, one lock; the row says what the id signed", async () => {
    const id = signChallengeId(terms());
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => lockChallengedPayment(seller.sellerId, id, lock(`${id}:${i}`))));
    expect(results.filter((r) => r === "locked")).toHaveLength(1);
    expect(results.every((r) => r === "locked" || r === "not_lockable")).toBe(true);
    const row = await db.payment.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "verified", rail: "x402", fromChallenge: true, amountMicros: 500_000n, operationKey: "backtest", payTo: "0xpayto" });
    expect(row.lockKey).toBe(`test:${id}:${results.indexOf("locked")}`);
  });

  it("one proof for 30 challenges at once: it locks one of them (lock_taken for the rest), and only one row is written", async () => {
    const ids = Array.from({ length: 30 }, () => signChallengeId(terms()));
    const key = `one-proof:${ids[0]}`;
    const results = await Promise.all(ids.map((id) => lockChallengedPayment(seller.sellerId, id, lock(key))));
    expect(results.filter((r) => r === "locked")).toHaveLength(1);
    expect(results.filter((r) => r === "lock_taken")).toHaveLength(29);
    expect(await db.payment.count({ where: { id: { in: ids } } })).toBe(1);
  });

  it("an undone lock deletes the row it wrote: the id is an open challenge again, and can be locked again", async () => {
    const id = signChallengeId(terms());
    expect(await lockChallengedPayment(seller.sellerId, id, lock(`undo:${id}`))).toBe("locked");
    await unlockUnverifiedPayment(id, `test:undo:${id}`);
    expect(await db.payment.findUnique({ where: { id } })).toBeNull();
    expect(await findPayment(seller.sellerId, id)).toMatchObject({ status: "challenged" });
    expect(await lockChallengedPayment(seller.sellerId, id, lock(`again:${id}`))).toBe("locked");
  });

  it("an expired, another seller's or tampered id is not lockable and writes no row", async () => {
    const expired = signChallengeId(terms({ issuedAt: 1_000, expiresAt: 2_000 }));
    const foreign = signChallengeId(terms({ sellerId: other.sellerId }));
    const good = signChallengeId(terms());
    const tampered = `${good.slice(0, -3)}${good.endsWith("AAA") ? "BBB" : "AAA"}`;
    for (const id of [expired, foreign, tampered]) {
      expect(await lockChallengedPayment(seller.sellerId, id, lock(`bad:${id}`))).toBe("not_lockable");
      expect(
        await startCheckout({ sellerId: seller.sellerId, paymentId: id, processor: "test", expiresAt: new Date(Date.now() + 60_000), minimumMicros: 500_000n }),
      ).toBe(false);
      expect(await db.payment.findUnique({ where: { id } })).toBeNull();
    }
  });

  it("a checkout and proofs racing for one id: exactly one of them takes it", async () => {
    const id = signChallengeId(terms());
    const checkout = () =>
      startCheckout({ sellerId: seller.sellerId, paymentId: id, processor: "test", expiresAt: new Date(Date.now() + 60_000), minimumMicros: 500_000n });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => checkout().then((ok) => (ok ? "checkout" : "lost"))),
      ...Array.from({ length: 10 }, (_, i) =>
        lockChallengedPayment(seller.sellerId, id, lock(`race:${id}:${i}`)).then((r) => (r === "locked" ? "lock" : "lost")),
      ),
    ]);
    expect(results.filter((r) => r !== "lost")).toHaveLength(1);
    const row = await db.payment.findUniqueOrThrow({ where: { id }, include: { card: true } });
    if (results.includes("checkout")) expect(row).toMatchObject({ status: "incomplete", rail: "card", card: { flow: "checkout", checkoutStatus: "open" } });
    else expect(row).toMatchObject({ status: "verified", card: null });
  });

  it("a purchase's plan_purchases row is written with the payment, by the lock or the checkout", async () => {
    const agent = await registerAnonymous(routedStore(seller.host));
    const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
    const bought = terms({ method: "POST", path: `/plans/${planId}/purchase`, credentialId: agent.credentialId, purchase: { planId, kind: "purchase" } });
    const byLock = signChallengeId(bought);
    expect(await lockChallengedPayment(seller.sellerId, byLock, lock(`buy:${byLock}`))).toBe("locked");
    const byCheckout = signChallengeId({ ...bought, purchase: { planId, kind: "extend" } });
    expect(
      await startCheckout({
        sellerId: seller.sellerId,
        paymentId: byCheckout,
        processor: "test",
        expiresAt: new Date(Date.now() + 60_000),
        minimumMicros: 500_000n,
      }),
    ).toBe(true);
    expect(await db.planPurchase.findMany({ where: { paymentId: { in: [byLock, byCheckout] } }, orderBy: { kind: "asc" } })).toMatchObject([
      { paymentId: byCheckout, planId, credentialId: agent.credentialId, kind: "extend", amountMicros: 500_000n },
      { paymentId: byLock, planId, credentialId: agent.credentialId, kind: "purchase", amountMicros: 500_000n },
    ]);
  });
});

describe("the counts of 402s", () => {
  it("add up across counting and flushing at the same time, each 402 once", async () => {
    const day = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const read = async () =>
      (await db.challengeCount.findUnique({ where: { sellerId_day_operationKey: { sellerId: other.sellerId, day, operationKey: "counted" } } }))?.count ?? 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 50; i++) countChallengeIssued(other.sellerId, "counted");
        await flushChallengeCounts();
      }),
    );
    await flushChallengeCounts();
    expect(await read()).toBe(1000);
    await flushChallengeCounts();
    expect(await read()).toBe(1000);
  });
});
