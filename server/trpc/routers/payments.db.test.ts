// The console's payments: scoped to the signed-in seller, paged without loss or repeats, totals equal to what
// was settled. Payments are moved through the real state machine (payments.queries), so the ledger rows are
// the ones the gateway would write.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { USDC_ADDRESS } from "../../chain/config";
import { db } from "../../db/client";
import { newId } from "../../lib/ids";
import { microsToUsd } from "../../lib/money";
import { releasePayment, scheduleSettlement } from "../../payments/payments.queries";
import { lockChallengedPayment } from "../../payments/locks.queries";
import { createChallengedPayment } from "../../payments/challenges.queries";
import { markConsumed, recordSettlementFailure, recordSettlementSuccess } from "../../payments/settlements.queries";
import { openCheckoutFor, payOnPage, TEST_CARD } from "../../testing/card";
import { createGatewaySeller } from "../../testing/gateway";
import { createCaller, sessionFor } from "../../testing/trpc";

type Fate = "challenged" | "verified" | "settling" | "settled" | "consumed" | "released" | "failed";
const FATES: Fate[] = ["challenged", "verified", "settling", "settled", "consumed", "released", "failed"];
const PAYER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

/** One payment of `sellerId` driven to `fate` through the same queries the gateway and reconciler use. */
async function payment(sellerId: string, fate: Fate, amountMicros: bigint): Promise<{ id: string; fate: Fate; amountMicros: bigint }> {
  const id = newId("pay");
  await createChallengedPayment({
    id,
    sellerId,
    method: "GET",
    path: "/api/v1/aggregates/AAPL",
    query: "from=2024-01-02&to=2024-01-31",
    operationKey: "aggregates",
    meterKey: "aggregates",
    amountMicros,
    payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
    network: "eip155:8453",
    asset: USDC_ADDRESS,
    expiresAt: new Date(Date.now() + 300_000),
  });
  if (fate === "challenged") return { id, fate, amountMicros };
  const lock = {
    rail: "x402",
    payer: PAYER,
    lockKey: `eip3009:eip155:8453:${USDC_ADDRESS.toLowerCase()}:${PAYER}:0x${randomBytes(32).toString("hex")}`,
    railData: { test: true },
    leaseSeconds: 60,
  };
  expect(await lockChallengedPayment(sellerId, id, lock)).toBe("locked");
  if (fate === "verified") return { id, fate, amountMicros };
  if (fate === "released") {
    expect(await releasePayment(id, "upstream_error", 502)).toBe(true);
    return { id, fate, amountMicros };
  }
  expect(await scheduleSettlement(id, 200, 1, 60)).toBe(true);
  if (fate === "settling") return { id, fate, amountMicros };
  if (fate === "failed") {
    expect(await recordSettlementFailure(id, "transfer reverted")).toBe(true);
    return { id, fate, amountMicros };
  }
  expect(await recordSettlementSuccess(id, `0x${randomBytes(32).toString("hex")}`)).toBe(true);
  if (fate === "consumed") expect(await markConsumed(id)).toBe(true);
  return { id, fate, amountMicros };
}

const isPaid = (p: { fate: Fate }) => p.fate === "settled" || p.fate === "consumed";
const tag = randomBytes(3).toString("hex");
let a: { sellerId: string; userId: string };
let b: { sellerId: string; userId: string };
let aPayments: Awaited<ReturnType<typeof payment>>[];
let bPayments: Awaited<ReturnType<typeof payment>>[];

type Caller = ReturnType<typeof createCaller>;
async function allPages(caller: Caller, includeChallenged: boolean) {
  const pages: { id: string; createdAt: string }[][] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<Caller["payments"]["list"]>> = await caller.payments.list({ cursor, includeChallenged });
    pages.push(page.payments);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

beforeAll(async () => {
  const seller = (s: string) => ({
    slug: `pay-${s}-${tag}`,
    name: s.toUpperCase(),
    hosts: [`pay-${s}-${tag}.test`],
    email: `${s}-${tag}@pay.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  a = await seedMarketSeller(db, seller("a"));
  b = await seedMarketSeller(db, seller("b"));
  // 42 payments of A, six in each state; amounts all different so a sum cannot match by accident.
  aPayments = [];
  for (let i = 0; i < 42; i++) aPayments.push(await payment(a.sellerId, FATES[i % FATES.length]!, BigInt(10_000 + i * 1_001)));
  // Thirty of them share one created_at, so the 25-row page boundary falls inside the tie: the cursor must break
  // ties by id, or the boundary would skip or repeat rows.
  await db.payment.updateMany({ where: { id: { in: aPayments.slice(0, 30).map((p) => p.id) } }, data: { createdAt: new Date("2030-01-01T00:00:00.000Z") } });
  bPayments = [await payment(b.sellerId, "consumed", 777_000n), await payment(b.sellerId, "challenged", 5_000n)];
});

describe("payments router", () => {
  it("pages through every payment of the seller once, newest first, unpaid challenges left out by default", async () => {
    const asA = createCaller(sessionFor(a.userId, a.sellerId));
    const pages = await allPages(asA, false);
    expect(pages.map((p) => p.length)).toEqual([25, 11]);
    const rows = pages.flat();
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(aPayments.filter((p) => p.fate !== "challenged").map((p) => p.id)));
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.createdAt >= rows[i]!.createdAt).toBe(true);

    const withChallenges = (await allPages(asA, true)).flat().map((r) => r.id);
    expect(withChallenges).toHaveLength(42);
    expect(new Set(withChallenges)).toEqual(new Set(aPayments.map((p) => p.id)));
  });

  it("shows amounts in USD, the state, the settlement transaction, and never the proof", async () => {
    const asA = createCaller(sessionFor(a.userId, a.sellerId));
    const rows = (await allPages(asA, true)).flat() as unknown as Record<string, unknown>[];
    for (const p of aPayments) {
      const row = rows.find((r) => r.id === p.id)!;
      expect(row.amountUsd).toBe(microsToUsd(p.amountMicros));
      expect(row.status).toBe(p.fate === "settling" ? "verified" : p.fate);
      expect(row.settling).toBe(p.fate === "settling");
      // An unpaid challenge belongs to no rail yet: any rail its 402 offered could still pay it.
      expect(row.rail).toBe(p.fate === "challenged" ? null : "x402");
      expect(row.operation).toBe("aggregates");
      expect(row.payer).toBe(p.fate === "challenged" ? null : PAYER);
      if (isPaid(p)) expect(row.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      else expect(row.transaction).toBeNull();
      expect(row).not.toHaveProperty("proof");
      expect(row).not.toHaveProperty("railData");
      expect(row).not.toHaveProperty("lockKey");
      expect(row).not.toHaveProperty("nonce");
    }
  });

  it("totals: revenue is the sum of what was settled, counts per state", async () => {
    const totals = await createCaller(sessionFor(a.userId, a.sellerId)).payments.totals();
    const paid = aPayments.filter(isPaid);
    expect(totals.revenueUsd).toBe(microsToUsd(paid.reduce((s, p) => s + p.amountMicros, 0n)));
    expect(totals.chargedUsd).toBe(totals.revenueUsd);
    expect(totals.refundedUsd).toBe("0.000000");
    expect(totals.charges).toBe(paid.length);
    expect(totals.ledgerMatchesPayments).toBe(true);
    const count = (s: string) => aPayments.filter((p) => (p.fate === "settling" ? "verified" : p.fate) === s).length;
    expect(totals.byStatus).toEqual(
      ["challenged", "incomplete", "verified", "settled", "consumed", "released", "refunded", "failed"].map((status) =>
        expect.objectContaining({ status, count: count(status) }),
      ),
    );
  });

  it("scopes everything to the signed-in seller: another seller sees none of A's payments", async () => {
    const asA = createCaller(sessionFor(a.userId, a.sellerId));
    const asB = createCaller(sessionFor(b.userId, b.sellerId));
    const bRows = (await allPages(asB, true)).flat().map((r) => r.id);
    expect(new Set(bRows)).toEqual(new Set(bPayments.map((p) => p.id)));
    expect((await allPages(asB, false)).flat().map((r) => r.id)).toEqual([bPayments[0]!.id]);
    // A cursor taken from A's list is only a position: B still reads B's rows.
    const aCursor = (await asA.payments.list({ includeChallenged: true })).nextCursor!;
    const bFromACursor = await asB.payments.list({ cursor: aCursor, includeChallenged: true });
    expect(bFromACursor.payments.every((r) => bPayments.some((p) => p.id === r.id))).toBe(true);
    const bTotals = await asB.payments.totals();
    expect(bTotals.revenueUsd).toBe("0.777000");
    expect(bTotals.byStatus.find((s) => s.status === "consumed")!.count).toBe(1);
    expect((await asA.payments.totals()).byStatus.reduce((s, x) => s + x.count, 0)).toBe(42);
  });

  it("a seller with no payments gets an empty list and zero totals", async () => {
    const c = await seedMarketSeller(db, {
      slug: `pay-c-${tag}`,
      name: "C",
      hosts: [`pay-c-${tag}.test`],
      email: `c-${tag}@pay.test`,
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const asC = createCaller(sessionFor(c.userId, c.sellerId));
    expect(await asC.payments.list({})).toEqual({ payments: [], nextCursor: null });
    const totals = await asC.payments.totals();
    expect(totals.revenueUsd).toBe("0.000000");
    expect(totals.byStatus.every((s) => s.count === 0)).toBe(true);
  });

  it("refuses a malformed cursor", async () => {
    await expect(createCaller(sessionFor(a.userId, a.sellerId)).payments.list({ cursor: "1700000000000;drop table" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("refuses callers without a seller session", async () => {
    for (const ctx of [{ session: null }, sessionFor("hum_1", a.sellerId, "human")]) {
      const caller = createCaller(ctx);
      await expect(caller.payments.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(caller.payments.totals()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(caller.archive.coverage()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
  });
});

describe("card payments in the console", () => {
  it("lists a card payment with brand, last four, processor id and refund state; one click refunds it once; another seller cannot", async () => {
    const store = await createGatewaySeller("http://127.0.0.1:9", { signingSecret: "card-console-secret-0123456789" });
    const owner = await db.sellerUser.findFirstOrThrow({ where: { sellerId: store.sellerId } });
    const asOwner = createCaller(sessionFor(owner.id, store.sellerId));
    const asB = createCaller(sessionFor(b.userId, b.sellerId));
    const opened = await openCheckoutFor(store.host, "/api/v1/backtest/AAPL");
    await payOnPage(store.sellerId, opened.paymentId, TEST_CARD.success);

    const row = () => asOwner.payments.list({}).then((l) => l.payments.find((p) => p.id === opened.paymentId)!);
    const before = await row();
    expect(before).toMatchObject({
      rail: "card",
      status: "settled",
      refundable: true,
      card: { processor: "test", flow: "checkout", brand: "visa", last4: "4242", refund: null },
    });
    expect(before.card!.processorPaymentId).toMatch(/^pi_test_/);
    expect(before.transaction).toBe(before.card!.processorPaymentId);
    const revenueBefore = (await asOwner.payments.totals()).revenueUsd;
    expect(revenueBefore).toBe("0.500000");

    // Another seller's session: the payment does not exist for it, and nothing changes.
    await expect(asB.payments.refund({ paymentId: opened.paymentId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await row()).status).toBe("settled");

    const clicks = await Promise.all([asOwner.payments.refund({ paymentId: opened.paymentId }), asOwner.payments.refund({ paymentId: opened.paymentId })]);
    expect(clicks.map((c) => c.alreadyRefunded).sort()).toEqual([false, true]);
    const after = await row();
    expect(after).toMatchObject({
      status: "refunded",
      refundable: false,
      card: { refund: { status: "succeeded", cause: "seller", refundId: expect.stringMatching(/^re_test_/) } },
    });
    expect(await asOwner.payments.refund({ paymentId: opened.paymentId })).toMatchObject({ alreadyRefunded: true, refundStatus: "succeeded" });
    const audit = await db.auditLog.findMany({ where: { sellerId: store.sellerId, action: "payment.refund", targetId: opened.paymentId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBe(owner.id);
    const totals = await asOwner.payments.totals();
    expect(totals).toMatchObject({ revenueUsd: "0.000000", refundedUsd: "0.500000", ledgerMatchesPayments: true });

    // A wallet payment is not refunded this way (its refund is sent on chain and recorded).
    const wallet = aPayments.find((p) => p.fate === "consumed")!;
    await expect(createCaller(sessionFor(a.userId, a.sellerId)).payments.refund({ paymentId: wallet.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("a refund's reason", () => {
  it("is kept in the audit row with the refund, and shown labelled in the audit log", async () => {
    const store = await createGatewaySeller("http://127.0.0.1:9", { signingSecret: "card-reason-secret-0123456789" });
    const owner = await db.sellerUser.findFirstOrThrow({ where: { sellerId: store.sellerId } });
    const asOwner = createCaller(sessionFor(owner.id, store.sellerId));
    const opened = await openCheckoutFor(store.host, "/api/v1/backtest/AAPL");
    await payOnPage(store.sellerId, opened.paymentId, TEST_CARD.success);

    await asOwner.payments.refund({ paymentId: opened.paymentId, reason: "Duplicate payment: paid twice for the same backtest" });
    const [row] = await db.auditLog.findMany({ where: { sellerId: store.sellerId, action: "payment.refund", targetId: opened.paymentId } });
    expect(row!.after).toMatchObject({ status: "refunded", reason: "Duplicate payment: paid twice for the same backtest" });
    const log = await asOwner.audit.list({});
    const entry = log.entries.find((e) => e.targetId === opened.paymentId)!;
    expect(entry.fields).toContainEqual(expect.objectContaining({ label: "Reason", after: "Duplicate payment: paid twice for the same backtest" }));
  });
});
