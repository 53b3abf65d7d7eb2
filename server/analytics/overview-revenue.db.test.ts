// The overview as a seller's revenue dashboard, and the funnel's stages, on the seeded day (server/testing/console-day.ts)
// and on a second day with every kind of row the first lacks: credit draws (usage, not payments), a card checkout opened
// and one expired unpaid, an x402 v1 payment that answered no 402, a settling payment, card charges and a plan purchase.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { updateSellerSettings } from "../settings/update-seller-settings";
import { CONSOLE_DAY, seedConsoleDay } from "../testing/console-day";
import { getFunnel } from "./get-funnel";
import { getMargin } from "./get-margin";
import { getHeadline, getOverview } from "./get-overview";
import { getTopCustomers } from "./get-top-customers";
import { rollUpClosedDays } from "./roll-up-days";

const day = { preset: "custom" as const, from: CONSOLE_DAY, to: CONSOLE_DAY };
const MIXED_DAY = "2025-07-15";
const mixed = { preset: "custom" as const, from: MIXED_DAY, to: MIXED_DAY };
const WALLET = "0x5555555555555555555555555555555555555555";
let seller: { sellerId: string; userId: string };
let credential: string;

type Row = {
  status: "challenged" | "incomplete" | "verified" | "settled" | "consumed" | "released" | "refunded" | "failed";
  rail: string | null;
  fromChallenge: boolean;
  op?: string;
  micros?: bigint;
  reason?: string;
  charge?: { feeMicros?: bigint; gasWei?: bigint };
  refund?: boolean;
  draw?: boolean;
  settling?: boolean;
  payer?: string | null;
  credentialId?: string;
};

/** One payment of MIXED_DAY with the ledger rows and outbox row its state implies, written as the gateway leaves them. */
async function seed(n: number, r: Row) {
  const id = newId("pay");
  const at = new Date(`${MIXED_DAY}T10:${String(n).padStart(2, "0")}:00.000Z`);
  const op = r.op ?? "aggregates";
  const micros = r.micros ?? 20_000n;
  const payer = r.payer === undefined ? (r.rail === "x402" ? WALLET : null) : r.payer;
  await db.payment.create({
    data: {
      id,
      sellerId: seller.sellerId,
      status: r.status,
      rail: r.rail,
      fromChallenge: r.fromChallenge,
      method: r.op === "plan_purchase" ? "POST" : "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: op,
      meterKey: op === "plan_purchase" ? null : op,
      amountMicros: micros,
      payer,
      credentialId: r.credentialId ?? null,
      lockKey: r.status === "challenged" ? null : `mixed:${id}`,
      expiresAt: new Date(at.getTime() + 300_000),
      failureReason: r.reason ?? null,
      createdAt: at,
      verifiedAt: r.status === "challenged" || r.status === "incomplete" ? null : at,
      settledAt: r.charge || r.draw ? at : null,
    },
  });
  if (r.settling) await db.settlement.create({ data: { id: newId("stl"), paymentId: id, status: "pending", attempts: 0, claimedUntil: at, createdAt: at } });
  const entry = { sellerId: seller.sellerId, paymentId: id, rail: r.rail, operationKey: op, payer, meterKey: null, units: 1, amountMicros: micros };
  if (r.charge)
    await db.ledgerEntry.create({
      data: {
        ...entry,
        id: newId("led"),
        kind: "charge",
        feeMicros: r.charge.feeMicros ?? null,
        gasCostWei: r.charge.gasWei?.toString() ?? null,
        createdAt: at,
      },
    });
  if (r.refund) await db.ledgerEntry.create({ data: { ...entry, id: newId("led"), kind: "refund", createdAt: new Date(at.getTime() + 60_000) } });
  if (r.draw) await db.ledgerEntry.create({ data: { ...entry, id: newId("led"), kind: "draw", payer: r.credentialId ?? null, createdAt: at } });
  return id;
}

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  seller = await seedMarketSeller(db, {
    slug: `rev-${tag}`,
    name: "Revenue",
    hosts: [`rev-${tag}.test`],
    email: `rev-${tag}@rev.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  await seedConsoleDay(db, seller.sellerId);
  credential = newId("agt");
  await db.agentCredential.create({ data: { id: credential, sellerId: seller.sellerId, kind: "anonymous", status: "unclaimed" } });
  const plan = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } });
  let n = 0;
  // Two unpaid 402s; one paid x402 call; one settling; an x402 v1 payment (no 402 of ours); one released.
  await seed(n++, { status: "challenged", rail: null, fromChallenge: true });
  await seed(n++, { status: "challenged", rail: null, fromChallenge: true });
  await seed(n++, { status: "consumed", rail: "x402", fromChallenge: true, charge: { gasWei: 1_000_000_000n } });
  await seed(n++, { status: "verified", rail: "x402", fromChallenge: true, settling: true });
  await seed(n++, { status: "consumed", rail: "x402", fromChallenge: false, charge: { gasWei: 1_000_000_000n } });
  await seed(n++, { status: "released", rail: "x402", fromChallenge: true, reason: "upstream_error" });
  // Card: a checkout still open, one expired unpaid, two paid ($0.50 backtests, a $0.30 fee reported on each).
  await seed(n++, { status: "incomplete", rail: "card", fromChallenge: true, op: "backtest", micros: 500_000n });
  await seed(n++, { status: "released", rail: "card", fromChallenge: true, op: "backtest", micros: 500_000n, reason: "checkout_expired" });
  for (let i = 0; i < 2; i++)
    await seed(n++, { status: "consumed", rail: "card", fromChallenge: true, op: "backtest", micros: 500_000n, charge: { feeMicros: 300_000n } });
  // A plan purchase of $5 for the credential (paid by a wallet), then three draws on its credit: usage, not payments.
  const purchase = await seed(n++, {
    status: "consumed",
    rail: "x402",
    fromChallenge: true,
    op: "plan_purchase",
    micros: 5_000_000n,
    charge: { gasWei: 1_000_000_000n },
    credentialId: credential,
  });
  await db.creditGrant.create({
    data: {
      id: newId("grt"),
      sellerId: seller.sellerId,
      planId: plan.id,
      credentialId: credential,
      sourcePaymentId: purchase,
      amountMicros: 5_000_000n,
      remainingMicros: 4_940_000n,
      expiresAt: new Date("2099-01-01T00:00:00Z"),
    },
  });
  for (let i = 0; i < 3; i++)
    await seed(n++, { status: "consumed", rail: "credits", fromChallenge: false, draw: true, credentialId: credential, payer: credential });
});

describe("the overview reads like a revenue dashboard", () => {
  it("ranks operations and rails by net revenue, with each one's share", async () => {
    const o = await getOverview(seller.sellerId, day);
    expect(o.revenueByOperation.map((r) => [r.operation, r.payments, r.refunds, r.netUsd, r.sharePercent])).toEqual([
      ["backtest", 2, 0, "1.000000", "90.1"],
      ["aggregates", 5, 1, "0.080000", "7.2"],
      ["avg_interest_rates", 3, 0, "0.030000", "2.7"],
    ]);
    expect(o.revenueByRail.map((r) => [r.rail, r.payments, r.netUsd])).toEqual([
      ["x402", 8, "0.590000"],
      ["mpp", 2, "0.520000"],
    ]);
    // The calls chart keeps its usage view, most calls first.
    expect(o.byOperation.map((r) => r.operation)).toEqual(["aggregates", "avg_interest_rates", "backtest"]);
  });

  it("charts the previous period beside the range, bucket by bucket", async () => {
    const o = await getOverview(seller.sellerId, day);
    const ten = o.series.find((s) => s.bucket === `${CONSOLE_DAY}T10`)!;
    expect(ten).toMatchObject({ previousBucket: "2025-06-01T10", previousNetUsd: "0.020000", netUsd: "0.000000" });
    expect(o.series.reduce((s, b) => s + Number(b.previousNetUsd), 0).toFixed(2)).toBe("0.04");
  });

  it("lists top wallets and credentials, and keeps card revenue apart until card payers have an identity", async () => {
    const o = await getTopCustomers(seller.sellerId, day);
    expect(o.wallets.map((w) => [w.id.slice(0, 4), w.netUsd])).toEqual([
      ["0x11", "0.540000"],
      ["0x44", "0.530000"],
      ["0x22", "0.020000"],
      ["0x33", "0.020000"],
    ]);
    const m = await getTopCustomers(seller.sellerId, mixed);
    expect(m.credentials).toEqual([{ kind: "credential", id: credential, payments: 1, netUsd: "5.000000", lastAt: `${MIXED_DAY}T10:10:00.000Z` }]);
    expect((await getOverview(seller.sellerId, mixed)).cardPayers).toEqual({ customers: [], unidentified: { payments: 2, netUsd: "1.000000" } });
  });

  it("reads the same top customers, revenue by operation and rail, and conversion from rolled-up days", async () => {
    const live = await getOverview(seller.sellerId, day);
    const liveTop = await getTopCustomers(seller.sellerId, day);
    const liveMixed = await getTopCustomers(seller.sellerId, mixed);
    // Roll the seeded days up until the seller is caught up (the days may be held back until their payments are final).
    for (let i = 0; i < 20 && (await rollUpClosedDays({ sellerIds: [seller.sellerId], maxDays: 500 })).days > 0; i++);
    const rolled = await getOverview(seller.sellerId, day);
    expect((await getTopCustomers(seller.sellerId, day)).wallets).toEqual(liveTop.wallets);
    expect(rolled.revenueByOperation).toEqual(live.revenueByOperation);
    expect(rolled.revenueByRail).toEqual(live.revenueByRail);
    expect(rolled.conversion).toEqual(live.conversion);
    expect(await getTopCustomers(seller.sellerId, mixed)).toEqual(liveMixed);
  });

  it("counts failed, released and refused payments with what each reason means, and the 402-to-paid conversion", async () => {
    const o = await getOverview(seller.sellerId, day);
    expect(o.problems).toMatchObject({ released: 1, failed: 1, refused: 3 });
    expect(o.problems.reasons[0]).toMatchObject({ code: "payment_request_mismatch", count: 2, payerCanDo: expect.stringContaining("fresh 402") });
    expect(o.conversion).toEqual({ issued: 15, settled: 10, percent: "66.7" });
  });

  it("shows month to date beside the rolling ranges", async () => {
    const at = new Date(`${CONSOLE_DAY}T23:59:00.000Z`);
    const o = await getOverview(seller.sellerId, { preset: "today" }, at);
    expect(o.headline.monthToDate).toMatchObject({ from: "2025-06-01", previousFrom: "2025-05-01", netUsd: "1.150000", previousNetUsd: "0.000000" });
    expect(o.headline.today.netUsd).toBe("1.110000");
    // The headline alone (the page's own query): the same figures.
    expect(await getHeadline(seller.sellerId, at)).toEqual(o.headline);
  });

  it("margin: card fees need no ETH rate; gas does, and says so", async () => {
    const card = (await getMargin(seller.sellerId, mixed)).rows.find((r) => r.rail === "card")!;
    // Two $0.50 card charges with $0.30 fees each: $0.40 margin, known without any rate.
    expect(card).toMatchObject({ calls: 2, gasCalls: 0, feesUsd: "0.600000", gasUsd: "0.000000", marginUsd: "0.400000", costKnownForAll: true });
    const wallet = (await getMargin(seller.sellerId, mixed)).rows.find((r) => r.rail === "x402" && r.operation === "aggregates")!;
    expect(wallet).toMatchObject({ gasCalls: 2, marginUsd: null, marginUnknownBecause: "no_eth_rate" });
    const o = await getOverview(seller.sellerId, mixed);
    expect(o.margin).toMatchObject({ rateSet: false, marginUsd: null, marginUnknownBecause: "no_eth_rate" });
    await updateSellerSettings({ sellerId: seller.sellerId, actorId: seller.userId, settings: { explorerTxUrls: {}, ethUsd: "1000" } });
    expect((await getOverview(seller.sellerId, mixed)).margin).toMatchObject({ rateSet: true, marginUnknownBecause: null });
    await updateSellerSettings({ sellerId: seller.sellerId, actorId: seller.userId, settings: { explorerTxUrls: {}, ethUsd: null } });
  });
});

describe("the funnel's stages", () => {
  it("on the seeded day: every 402 answered, verified, served and settled, each a subset of the one before", async () => {
    const f = await getFunnel(seller.sellerId, day);
    expect(f.stages).toEqual({ issued: 15, answered: 12, verified: 12, served: 11, settled: 10, withoutChallenge: 0, conversionPercent: "66.7" });
  });

  it("leaves credit draws out, counts unpaid checkouts as answered but not verified, and v1 payments beside the stages", async () => {
    const f = await getFunnel(seller.sellerId, mixed);
    // 402s: 2 unpaid + paid + settling + released + 4 card + the purchase = 10 (the v1 payment and the draws had none).
    expect(f.stages).toEqual({ issued: 10, answered: 8, verified: 6, served: 5, settled: 4, withoutChallenge: 1, conversionPercent: "40.0" });
    const s = f.stages;
    expect(s.answered <= s.issued && s.verified <= s.answered && s.served <= s.verified && s.settled <= s.served).toBe(true);
    // No step counts a draw on prepaid credit: proofs are the 7 payments that verified (v1 included), no refusals.
    expect(f.steps).toMatchObject({ proofs: 7, verified: 7, settled: 5 });
    expect(f.rails).not.toContain("credits");
    expect(f.byRail.map((r) => r.rail)).not.toContain("credits");
    expect(f.reasons).toEqual(
      expect.arrayContaining([
        { step: "proof", code: "checkout_expired", count: 1 },
        { step: "serve", code: "upstream_error", count: 1 },
      ]),
    );
    expect(f.explanations["proof:checkout_expired"]!.meaning).toMatch(/checkout/);
  });
});
