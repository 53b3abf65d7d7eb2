// Closed days rolled up give the same figures as the live tables, are never counted twice (challenges the reconciler
// deletes after the rollup, concurrent passes), and a day with a payment still in flight is held back until it is final.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db, sql } from "../db/client";
import { newId } from "../lib/ids";
import { signChallengeId } from "../payments/challenge-id";
import { deleteExpiredChallenges } from "../payments/payments.queries";
import { CONSOLE_DAY, CONSOLE_DAY_FIGURES as F, CONSOLE_PREVIOUS_DAY, seedConsoleDay } from "../testing/console-day";
import { getFunnel } from "./get-funnel";
import { getMargin } from "./get-margin";
import { getOverview } from "./get-overview";
import { listPayingWallets } from "./list-paying-wallets";
import { lastClosedDay, rollUpClosedDays } from "./roll-up-days";
import { findRolledThrough } from "./rollup.queries";
import { countPayers } from "./analytics.queries";

const day = { preset: "custom" as const, from: CONSOLE_DAY, to: CONSOLE_DAY };
const both = { preset: "custom" as const, from: CONSOLE_PREVIOUS_DAY, to: CONSOLE_DAY };

async function seller(label: string) {
  const tag = newId("tst").slice(4, 12);
  const s = await seedMarketSeller(db, {
    slug: `${label}-${tag}`,
    name: label,
    hosts: [`${label}-${tag}.test`],
    email: `${label}-${tag}@rollup.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  return s.sellerId;
}

/** Everything the console shows for the seeded days, for comparing live reads with rolled-up ones. */
async function figures(sellerId: string) {
  const [o1, o2, f1, f2, m, w] = await Promise.all([
    getOverview(sellerId, day),
    getOverview(sellerId, both),
    getFunnel(sellerId, day),
    getFunnel(sellerId, both),
    getMargin(sellerId, both),
    listPayingWallets(sellerId, both),
  ]);
  return { o1: { ...o1, headline: null }, o2: { ...o2, headline: null }, f1, f2, m, w };
}

let sellerId: string;
let live: Awaited<ReturnType<typeof figures>>;

beforeAll(async () => {
  sellerId = await seller("rollup");
  await seedConsoleDay(db, sellerId);
  live = await figures(sellerId);
});

describe("closed-day rollups", () => {
  it("roll a seller's closed days once, and the console's figures stay exactly the same", async () => {
    expect(await findRolledThrough(sellerId)).toBeNull();
    const r = await rollUpClosedDays({ sellerIds: [sellerId] });
    // The two seeded days are rolled; the empty days after them are skipped over, not rolled one by one.
    expect(r).toMatchObject({ sellers: 1, days: 2, heldBack: 0 });
    expect(await findRolledThrough(sellerId)).toBe(lastClosedDay(new Date()));
    expect(await db.ledgerDaily.count({ where: { sellerId } })).toBeGreaterThan(0);
    expect(await figures(sellerId)).toEqual(live);
    expect(live.o1.totals.netUsd).toBe(F.netUsd);
    // The rolled-up rows are what is read: change one and the overview follows (restored after).
    await sql(
      `update ledger_daily set amount_micros = amount_micros + 1000000 where seller_id = $1 and day = $2::date and kind = 'charge' and operation_key = 'backtest' and rail = 'mpp'`,
      [sellerId, CONSOLE_DAY],
    );
    expect((await getOverview(sellerId, day)).totals.netUsd).toBe("2.110000");
    await sql(
      `update ledger_daily set amount_micros = amount_micros - 1000000 where seller_id = $1 and day = $2::date and kind = 'charge' and operation_key = 'backtest' and rail = 'mpp'`,
      [sellerId, CONSOLE_DAY],
    );
    // A second pass has nothing to do.
    expect(await rollUpClosedDays({ sellerIds: [sellerId] })).toMatchObject({ days: 0 });
  });

  it("a challenge the reconciler deletes after its day was rolled up is not counted twice", async () => {
    expect(await db.payment.count({ where: { sellerId, status: "challenged" } })).toBe(1);
    await deleteExpiredChallenges(new Date());
    expect(await db.payment.count({ where: { sellerId, status: "challenged" } })).toBe(0);
    const f = await getFunnel(sellerId, day);
    expect(f.steps).toMatchObject({ issued: F.funnel.issued, neverPaid: F.funnel.neverPaid });
    expect(f).toEqual(live.f1);
  });

  it("concurrent passes roll each day once", async () => {
    const other = await seller("rollup-race");
    await seedConsoleDay(db, other);
    const before = await figures(other);
    const reports = await Promise.all([1, 2, 3, 4].map(() => rollUpClosedDays({ sellerIds: [other] }).catch((e: unknown) => e)));
    expect(reports.filter((r) => r instanceof Error)).toEqual([]);
    expect(reports.reduce((n: number, r) => n + (r as { days: number }).days, 0)).toBe(2);
    expect(await figures(other)).toEqual(before);
  });

  // Issue 22: stateless challenges have no row until something acts on them; the day's counted 402s (challenge_counts)
  // less the rows born from their signed ids are its unpaid challenges, before and after the rollup.
  it("folds the counted stateless challenges in: issued and never paid read the same live and rolled up", async () => {
    const s = await seller("rollup-stateless");
    const bornOn = async (operationKey: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const issuedAt = Date.parse(`${CONSOLE_DAY}T10:00:00Z`) / 1000 + i;
        const id = signChallengeId({
          sellerId: s,
          method: "GET",
          path: `/api/v1/${operationKey}/AAPL`,
          query: "",
          amountMicros: 20_000n,
          operationKey,
          meterKey: null,
          issuedAt,
          expiresAt: issuedAt + 300,
          credentialId: null,
          purchase: null,
        });
        await db.payment.create({
          data: {
            id,
            sellerId: s,
            status: "released",
            failureReason: "upstream_error",
            rail: "x402",
            fromChallenge: true,
            method: "GET",
            path: `/api/v1/${operationKey}/AAPL`,
            query: "",
            operationKey,
            amountMicros: 20_000n,
            expiresAt: new Date((issuedAt + 300) * 1000),
            createdAt: new Date(`${CONSOLE_DAY}T12:00:00Z`),
            verifiedAt: new Date(`${CONSOLE_DAY}T12:00:01Z`),
          },
        });
      }
    };
    await db.challengeCount.createMany({
      data: [
        { sellerId: s, day: new Date(`${CONSOLE_DAY}T00:00:00Z`), operationKey: "aggregates", count: 5 },
        // A crash lost counts: fewer counted than the rows their ids wrote. Each row is still a challenge issued.
        { sellerId: s, day: new Date(`${CONSOLE_DAY}T00:00:00Z`), operationKey: "backtest", count: 1 },
      ],
    });
    await bornOn("aggregates", 2);
    await bornOn("backtest", 2);
    const before = await getFunnel(s, day);
    expect(before.steps).toMatchObject({ issued: 7, neverPaid: 3, verified: 4, released: 4 });
    expect(before.byOperation).toEqual(
      expect.arrayContaining([expect.objectContaining({ operation: "aggregates", issued: 5 }), expect.objectContaining({ operation: "backtest", issued: 2 })]),
    );
    expect(await rollUpClosedDays({ sellerIds: [s] })).toMatchObject({ days: 1, heldBack: 0 });
    expect(await db.paymentDaily.findMany({ where: { sellerId: s, status: "challenged" }, select: { operationKey: true, count: true } })).toEqual([
      { operationKey: "aggregates", count: 3 },
    ]);
    expect(await getFunnel(s, day)).toEqual(before);
  });

  it("holds back a day with a payment still in flight, and rolls it once the payment is final", async () => {
    const s = await seller("rollup-held");
    const id = newId("pay");
    await db.payment.create({
      data: {
        id,
        sellerId: s,
        status: "verified",
        rail: "x402",
        fromChallenge: true,
        method: "GET",
        path: "/api/v1/aggregates/AAPL",
        query: "",
        operationKey: "aggregates",
        amountMicros: 20_000n,
        payer: "0x5555555555555555555555555555555555555555",
        lockKey: `held:${randomBytes(8).toString("hex")}`,
        expiresAt: new Date(`${CONSOLE_DAY}T12:05:00Z`),
        createdAt: new Date(`${CONSOLE_DAY}T12:00:00Z`),
        verifiedAt: new Date(`${CONSOLE_DAY}T12:00:01Z`),
      },
    });
    expect(await rollUpClosedDays({ sellerIds: [s] })).toMatchObject({ days: 0, heldBack: 1 });
    expect(await findRolledThrough(s)).toBe("2025-06-01");
    expect((await getFunnel(s, day)).steps).toMatchObject({ verified: 1, beingServed: 1 });
    await db.payment.update({ where: { id }, data: { status: "released", failureReason: "abandoned" } });
    expect(await rollUpClosedDays({ sellerIds: [s] })).toMatchObject({ days: 1, heldBack: 0 });
    expect((await getFunnel(s, day)).steps).toMatchObject({ verified: 1, beingServed: 0, released: 1 });
  });
});

describe("unique payers from the rolled-up bit strings", () => {
  it("counts a payer only for ranges that hold one of its days", async () => {
    const s = await seller("bits");
    await db.analyticsRollup.create({ data: { sellerId: s, rolledThrough: new Date("2025-01-31T00:00:00Z") } });
    // Wallet 1 paid on Jan 10 and Jan 20 (bits 0 and 10 from its first day); wallet 2 on Jan 15 only.
    await sql(
      `insert into payer_activity (seller_id, rail, payer, first_day, days) values ($1, 'x402', '0x01', '2025-01-10', B'10000000001'), ($1, 'mpp', '0x02', '2025-01-15', B'1')`,
      [s],
    );
    const count = async (from: string, to: string) =>
      (
        await countPayers(s, { start: new Date(`${from}T00:00:00Z`), end: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) }, "2025-01-31", [
          { rail: "x402", kind: "wallet" },
          { rail: "mpp", kind: "wallet" },
        ])
      ).find((k) => k.kind === "wallet")?.payers ?? 0;
    expect(await count("2025-01-01", "2025-01-09")).toBe(0);
    expect(await count("2025-01-10", "2025-01-10")).toBe(1);
    expect(await count("2025-01-11", "2025-01-14")).toBe(0);
    expect(await count("2025-01-11", "2025-01-15")).toBe(1);
    expect(await count("2025-01-16", "2025-01-19")).toBe(0);
    expect(await count("2025-01-16", "2025-01-20")).toBe(1);
    expect(await count("2025-01-01", "2025-01-31")).toBe(2);
    expect(await count("2025-01-21", "2025-01-31")).toBe(0);
  });
});
