// The Refunds page as a seller works from it: each refund's status (a wallet refund verified on chain, a card refund
// pending until the processor confirms it, with its re_... id once it does), the reason typed in the dialog or what
// made an automatic one, filters by status, rail and days (a reversed range refused), totals of the filtered set, and a
// CSV of the same rows in words and dollars and cents. Another seller sees none of it.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { createCaller, sessionFor } from "../testing/trpc";
import { exportSellerRefunds, REFUND_CSV_COLUMNS } from "./export-seller-refunds";

type Caller = ReturnType<typeof createCaller>;
let caller: Caller;
let other: Caller;
let sellerId: string;
let userId: string;
const WALLET = `0x${randomBytes(20).toString("hex")}`;
const TX = `0x${randomBytes(32).toString("hex")}`;
const ids: Record<string, string> = {};

async function refunded(name: string, rail: string, micros: bigint, day: string, extra: { tx?: string; payer?: string } = {}) {
  const id = newId("pay");
  ids[name] = id;
  await db.payment.create({
    data: {
      id,
      sellerId,
      status: "refunded",
      rail,
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: "aggregates",
      amountMicros: micros,
      payer: extra.payer ?? null,
      network: rail === "card" ? null : "eip155:8453",
      expiresAt: new Date(`${day}T00:10:00Z`),
      createdAt: new Date(`${day}T00:00:00Z`),
    },
  });
  const row = { sellerId, paymentId: id, rail, payer: extra.payer ?? null, operationKey: "aggregates", amountMicros: micros };
  await db.ledgerEntry.create({ data: { id: newId("led"), kind: "charge", ...row, createdAt: new Date(`${day}T00:01:00Z`) } });
  await db.ledgerEntry.create({
    data: { id: newId("led"), kind: "refund", ...row, transaction: extra.tx ?? null, logIndex: extra.tx ? 0 : null, createdAt: new Date(`${day}T12:00:00Z`) },
  });
  return id;
}

beforeAll(async () => {
  const tag = randomBytes(4).toString("hex");
  const seed = (slug: string) =>
    seedMarketSeller(db, { slug, name: slug, hosts: [`${slug}.test`], email: `${slug}@rf.test`, password: "pw-123456", payTo: null, signingSecret: null });
  const s = await seed(`rf-${tag}`);
  ({ sellerId, userId } = s);
  caller = createCaller(sessionFor(s.userId, s.sellerId));
  const o = await seed(`rf-o-${tag}`);
  other = createCaller(sessionFor(o.userId, o.sellerId));

  await refunded("wallet", "x402", 20_000n, "2026-03-01", { tx: TX, payer: WALLET });
  await db.auditLog.create({
    data: {
      id: newId("aud"),
      sellerId,
      actorId: userId,
      action: "payment.refund",
      targetType: "payment",
      targetId: ids.wallet!,
      after: { reason: "wrong ticker" },
    },
  });
  await refunded("cardDone", "card", 1_250_000n, "2026-03-02");
  await db.cardPayment.create({
    data: {
      paymentId: ids.cardDone!,
      processor: "test",
      flow: "checkout",
      payerEmail: `ann-${tag}@people.test`,
      cardBrand: "visa",
      cardLast4: "4242",
      refundStatus: "succeeded",
      refundId: `re_test_${tag}`,
      refundCause: "delivery_failed",
    },
  });
  // Each refund's own processor side (card_refunds, one row per refund since partial refunds).
  await db.cardRefund.create({
    data: { paymentId: ids.cardDone!, seq: 0, amountMicros: 1_250_000n, status: "succeeded", processorRefundId: `re_test_${tag}`, cause: "delivery_failed" },
  });
  await refunded("cardPending", "card", 500_000n, "2026-03-03");
  await db.cardPayment.create({ data: { paymentId: ids.cardPending!, processor: "test", flow: "checkout", refundStatus: "pending", refundCause: "seller" } });
  await db.cardRefund.create({ data: { paymentId: ids.cardPending!, seq: 0, amountMicros: 500_000n, status: "pending", cause: "seller" } });
});

describe("payments.refunds", () => {
  it("shows each refund's status, reason, card refund id or transaction, newest first", async () => {
    const { refunds } = await caller.payments.refunds({});
    expect(refunds.map((r) => r.paymentId)).toEqual([ids.cardPending, ids.cardDone, ids.wallet]);
    const [pending, done, wallet] = refunds;
    expect(pending).toMatchObject({ status: "pending", reason: "Refunded by the seller (no reason given)", processorRefundId: null });
    expect(done).toMatchObject({
      status: "succeeded",
      reason: "Automatic: the data source failed after the card was charged",
      processorRefundId: expect.stringMatching(/^re_test_/),
      card: { brand: "visa", last4: "4242" },
      payerEmail: expect.stringMatching(/^ann-/),
    });
    expect(wallet).toMatchObject({ status: "succeeded", reason: "wrong ticker", transaction: TX, payer: WALLET, chain: "Base", amountUsd: "0.020000" });
    expect((await other.payments.refunds({})).refunds).toEqual([]);
  });

  it("filters by status, rail and days, with the filtered totals; a reversed range is refused", async () => {
    const idsOf = async (f: Parameters<Caller["payments"]["refunds"]>[0]) => (await caller.payments.refunds(f)).refunds.map((r) => r.paymentId);
    expect(await idsOf({ status: "pending" })).toEqual([ids.cardPending]);
    expect(await idsOf({ rail: "x402" })).toEqual([ids.wallet]);
    expect(await idsOf({ from: "2026-03-02", to: "2026-03-02" })).toEqual([ids.cardDone]);
    expect(await caller.payments.refundsSummary({ rail: "card" })).toMatchObject({
      count: 2,
      amountUsd: "1.750000",
      byStatus: [
        { status: "succeeded", count: 1, amountUsd: "1.250000" },
        { status: "pending", count: 1, amountUsd: "0.500000" },
        { status: "failed", count: 0, amountUsd: "0.000000" },
      ],
    });
    await expect(caller.payments.refunds({ from: "2026-03-03", to: "2026-03-01" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("exports the filtered refunds as CSV in words and dollars and cents", async () => {
    let text = "";
    for await (const chunk of exportSellerRefunds(sellerId, { from: "2026-03-01", to: "2026-03-02" })) text += chunk;
    const [header, ...lines] = text.trimEnd().split("\r\n");
    expect(header).toBe(REFUND_CSV_COLUMNS.join(","));
    const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [REFUND_CSV_COLUMNS[i], v])));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      "Refunded (UTC)": "2026-03-02 12:00:00",
      Amount: "1.25",
      Currency: "USD",
      Status: "Refunded",
      "Paid with": "Card",
      Card: "VISA •••• 4242",
      "Card refund ID": expect.stringMatching(/^re_test_/),
      Payer: "",
    });
    expect(rows[1]).toMatchObject({
      Amount: "0.02",
      Reason: "wrong ticker",
      "Paid with": "x402 (USDC)",
      Payer: WALLET,
      Network: "Base",
      "Refund transaction": TX,
    });
  });
});
