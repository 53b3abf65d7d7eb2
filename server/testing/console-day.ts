// A known business day for the console's tests (database tests and the Playwright specs): payments in every state on
// CONSOLE_DAY and a few on the day before, with ledger rows, gas costs, refused proofs and unpaid challenges, and the
// figures the overview, funnel and margin must show for them, worked out by hand below. Written straight into the
// tables (rows as the gateway, the reconciler and a recorded refund would leave them), idempotent per seller.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../db/generated/client";

/** A transaction-hash-shaped value unique to the seller (refund transfers are unique across sellers). */
const hash = (s: string) => `0x${createHash("sha256").update(s).digest("hex")}`;

/** A past UTC day nobody else writes to, and the day before (the previous period of a one-day range). */
export const CONSOLE_DAY = "2025-06-02";
export const CONSOLE_PREVIOUS_DAY = "2025-06-01";

const WALLET = {
  a: "0x1111111111111111111111111111111111111111",
  b: "0x2222222222222222222222222222222222222222",
  c: "0x3333333333333333333333333333333333333333",
  d: "0x4444444444444444444444444444444444444444",
};
/** 60,000 gas at 0.01 gwei: 600,000,000,000 wei = 0.0000006 ETH per settlement. */
const GAS_WEI = 600_000_000_000n;

type Paid = { op: string; micros: bigint; rail: "x402" | "mpp"; payer: string; hour: number; refunded?: boolean; day?: string };
const PAID: Paid[] = [
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.a, hour: 1 },
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.a, hour: 3 },
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.b, hour: 3 },
  { op: "aggregates", micros: 20_000n, rail: "mpp", payer: WALLET.c, hour: 9 },
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.c, hour: 14, refunded: true },
  { op: "backtest", micros: 500_000n, rail: "mpp", payer: WALLET.a, hour: 9 },
  { op: "backtest", micros: 500_000n, rail: "x402", payer: WALLET.d, hour: 20 },
  { op: "avg_interest_rates", micros: 10_000n, rail: "x402", payer: WALLET.d, hour: 20 },
  { op: "avg_interest_rates", micros: 10_000n, rail: "x402", payer: WALLET.d, hour: 21 },
  { op: "avg_interest_rates", micros: 10_000n, rail: "x402", payer: WALLET.d, hour: 23 },
  // The previous day: two paid calls of one wallet.
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.a, hour: 10, day: CONSOLE_PREVIOUS_DAY },
  { op: "aggregates", micros: 20_000n, rail: "x402", payer: WALLET.a, hour: 11, day: CONSOLE_PREVIOUS_DAY },
];

/** What the console must show for CONSOLE_DAY (a custom range from CONSOLE_DAY to CONSOLE_DAY). */
export const CONSOLE_DAY_FIGURES = {
  // Charges 5 x 0.02 + 2 x 0.50 + 3 x 0.01 = 1.130000; one 0.02 refund -> 1.110000.
  netUsd: "1.110000",
  chargedUsd: "1.130000",
  refundedUsd: "0.020000",
  paidCalls: 10,
  refunds: 1,
  // The day before: 2 x 0.02. (1.11 - 0.04) / 0.04 = +2675.0 %.
  previousNetUsd: "0.040000",
  changePercent: "+2675.0",
  previousPaidCalls: 2,
  paidCallsChangePercent: "+400.0",
  wallets: 4,
  // Paid calls per operation, most first; net revenue per operation.
  byOperation: [
    { operation: "aggregates", calls: 5, refunds: 1, netUsd: "0.080000" },
    { operation: "avg_interest_rates", calls: 3, refunds: 0, netUsd: "0.030000" },
    { operation: "backtest", calls: 2, refunds: 0, netUsd: "1.000000" },
  ],
  // Revenue per hour (a one-day range is charted by hour): the hours with money, net of the refund at 14:00.
  hours: { "01": "0.020000", "03": "0.040000", "09": "0.520000", "14": "0.000000", "20": "0.510000", "21": "0.010000", "23": "0.010000" } as Record<
    string,
    string
  >,
  // The funnel of CONSOLE_DAY, all operations and rails: 15 challenges (10 paid, 1 released, 1 failed, 3 never paid),
  // 3 refused proofs (2 payment_request_mismatch, 1 payment_required: a malformed proof), so 15 proofs.
  funnel: { issued: 15, neverPaid: 3, proofs: 15, refused: 3, verified: 12, released: 1, served: 11, failed: 1, settled: 10 },
  funnelReasons: [
    { step: "proof", code: "payment_request_mismatch", count: 2 },
    { step: "proof", code: "payment_required", count: 1 },
    { step: "serve", code: "upstream_error", count: 1 },
    { step: "settle", code: "insufficient_funds", count: 1 },
  ],
  // Gas: every charge of the day has GAS_WEI: 10 x 0.0000006 ETH.
  gasEth: "0.000006",
} as const;

const at = (day: string, hour: number, minute = 0) => new Date(`${day}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00.000Z`);

/** Seed the day for `sellerId` (skipped when it is already there). Ids are derived from the seller id, so sellers do not collide. */
export async function seedConsoleDay(db: PrismaClient, sellerId: string): Promise<void> {
  const tag = sellerId.replace(/^sel_/, "").slice(0, 10);
  const id = (kind: string, n: number) => `${kind}_fx${tag}${String(n).padStart(3, "0")}`;
  if (await db.payment.findUnique({ where: { id: id("pay", 0) }, select: { id: true } })) return;
  // These rows land in closed days: forget any rollup of the seller, so the days are read live and rolled again.
  await db.$transaction([
    db.analyticsRollup.deleteMany({ where: { sellerId } }),
    db.ledgerDaily.deleteMany({ where: { sellerId } }),
    db.payerDaily.deleteMany({ where: { sellerId } }),
    db.payerActivity.deleteMany({ where: { sellerId } }),
    db.paymentDaily.deleteMany({ where: { sellerId } }),
    db.refusalDaily.deleteMany({ where: { sellerId } }),
  ]);
  const base = {
    sellerId,
    method: "GET",
    query: "",
    currency: "USD",
    network: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
  };
  const path = (op: string) => (op === "aggregates" ? "/api/v1/aggregates/AAPL" : op === "backtest" ? "/api/v1/backtest/AAPL" : "/api/v1/avg-interest-rates");
  let n = 0;
  await db.$transaction(async (tx) => {
    for (const p of PAID) {
      const i = n++;
      const day = p.day ?? CONSOLE_DAY;
      const created = at(day, p.hour, i % 50);
      const settled = new Date(created.getTime() + 2_000);
      const tx32 = hash(`${sellerId}:settle:${i}`);
      await tx.payment.create({
        data: {
          ...base,
          id: id("pay", i),
          status: p.refunded ? "refunded" : "consumed",
          rail: p.rail,
          fromChallenge: true,
          path: path(p.op),
          operationKey: p.op,
          meterKey: p.op,
          amountMicros: p.micros,
          payer: p.payer,
          lockKey: `fixture:${tag}:${i}`,
          expiresAt: new Date(created.getTime() + 300_000),
          upstreamStatus: 200,
          transaction: tx32,
          createdAt: created,
          verifiedAt: new Date(created.getTime() + 1_000),
          settledAt: settled,
        },
      });
      await tx.settlement.create({
        data: { id: id("stl", i), paymentId: id("pay", i), status: "succeeded", attempts: 1, claimedUntil: settled, transaction: tx32, createdAt: settled },
      });
      const entry = { sellerId, paymentId: id("pay", i), rail: p.rail, operationKey: p.op, payer: p.payer, meterKey: p.op, units: 1, amountMicros: p.micros };
      await tx.ledgerEntry.create({ data: { ...entry, id: id("led", i), kind: "charge", gasCostWei: GAS_WEI.toString(), createdAt: settled } });
      if (p.refunded)
        await tx.ledgerEntry.create({
          data: {
            ...entry,
            id: id("led", 500 + i),
            kind: "refund",
            transaction: hash(`${sellerId}:refund:${i}`),
            logIndex: 0,
            createdAt: at(day, p.hour, 40),
          },
        });
    }
    // A released call (the upstream answered 500) and a failed settlement, both aggregates on x402.
    for (const [status, reason] of [
      ["released", "upstream_error"],
      ["failed", "insufficient_funds"],
    ] as const) {
      const i = n++;
      const created = at(CONSOLE_DAY, 12, i);
      await tx.payment.create({
        data: {
          ...base,
          id: id("pay", i),
          status,
          rail: "x402",
          fromChallenge: true,
          path: path("aggregates"),
          operationKey: "aggregates",
          meterKey: "aggregates",
          amountMicros: 20_000n,
          payer: WALLET.b,
          lockKey: `fixture:${tag}:${i}`,
          expiresAt: new Date(created.getTime() + 300_000),
          upstreamStatus: status === "released" ? 500 : 200,
          failureReason: reason,
          createdAt: created,
          verifiedAt: new Date(created.getTime() + 1_000),
        },
      });
      if (status === "failed")
        await tx.settlement.create({
          data: { id: id("stl", i), paymentId: id("pay", i), status: "failed", attempts: 1, claimedUntil: created, lastError: reason, createdAt: created },
        });
    }
    // Three challenges never paid: one still a payment row, two already deleted by the reconciler (counted).
    {
      const i = n++;
      const created = at(CONSOLE_DAY, 7, 0);
      await tx.payment.create({
        data: {
          ...base,
          id: id("pay", i),
          status: "challenged",
          fromChallenge: true,
          path: path("aggregates"),
          operationKey: "aggregates",
          meterKey: "aggregates",
          amountMicros: 20_000n,
          expiresAt: new Date(created.getTime() + 300_000),
          createdAt: created,
        },
      });
    }
    await tx.expiredChallengeCount.create({ data: { sellerId, day: new Date(`${CONSOLE_DAY}T00:00:00Z`), operationKey: "backtest", count: 2 } });
    await tx.paymentRefusal.createMany({
      data: [
        { sellerId, rail: "x402", operationKey: "aggregates", code: "payment_request_mismatch", createdAt: at(CONSOLE_DAY, 8) },
        { sellerId, rail: "x402", operationKey: "aggregates", code: "payment_request_mismatch", createdAt: at(CONSOLE_DAY, 8, 5) },
        { sellerId, rail: "mpp", operationKey: "backtest", code: "payment_required", reason: "malformed_payment", createdAt: at(CONSOLE_DAY, 8, 9) },
      ],
    });
  });
}
