// The console's figures for a known day (server/testing/console-day.ts), read back through the same functions the
// pages call: the overview, the funnel, the margin and the paying wallets must equal what was worked out by hand.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { updateSellerSettings } from "../settings/update-seller-settings";
import { CONSOLE_DAY, CONSOLE_DAY_FIGURES as F, seedConsoleDay } from "../testing/console-day";
import { getFunnel } from "./get-funnel";
import { getMargin } from "./get-margin";
import { getOverview } from "./get-overview";
import { listPayingWallets } from "./list-paying-wallets";

const day = { preset: "custom" as const, from: CONSOLE_DAY, to: CONSOLE_DAY };
let seller: { sellerId: string; userId: string };

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  seller = await seedMarketSeller(db, {
    slug: `day-${tag}`,
    name: "Day",
    hosts: [`day-${tag}.test`],
    email: `day-${tag}@day.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  await seedConsoleDay(db, seller.sellerId);
  // Idempotent: a second seed adds nothing.
  await seedConsoleDay(db, seller.sellerId);
});

describe("the console's figures for a seeded day", () => {
  it("overview: net revenue, change, paid calls, payers, revenue per hour and calls per operation", async () => {
    const o = await getOverview(seller.sellerId, day);
    expect(o.range).toMatchObject({ from: CONSOLE_DAY, to: CONSOLE_DAY, days: 1, bucket: "hour" });
    expect(o.totals).toMatchObject({
      netUsd: F.netUsd,
      chargedUsd: F.chargedUsd,
      refundedUsd: F.refundedUsd,
      previousNetUsd: F.previousNetUsd,
      changePercent: F.changePercent,
      paidCalls: F.paidCalls,
      previousPaidCalls: F.previousPaidCalls,
      paidCallsChangePercent: F.paidCallsChangePercent,
      refunds: F.refunds,
      wallets: F.wallets,
      credentials: 0,
    });
    expect(o.byOperation).toEqual(F.byOperation);
    expect(o.series).toHaveLength(24);
    for (const s of o.series) expect(s.netUsd, s.bucket).toBe(F.hours[s.bucket.slice(11, 13)] ?? "0.000000");
  });

  it("funnel: issued, never paid, proofs, refused, verified, released, served, failed and settled, with the reasons", async () => {
    const f = await getFunnel(seller.sellerId, day);
    expect(f.steps).toMatchObject(F.funnel);
    expect(f.reasons).toEqual(F.funnelReasons);
    expect(f.conversionPercent).toBe("66.7");
    // Per rail: the refused MPP proof and the MPP payments; challenges have no rail.
    expect(f.byRail.find((r) => r.rail === "mpp")).toMatchObject({ proofs: 3, refused: 1, verified: 2, served: 2, settled: 2 });
    expect(f.byRail.find((r) => r.rail === "x402")).toMatchObject({ proofs: 12, refused: 2, verified: 10, released: 1, served: 9, failed: 1, settled: 8 });
    // One operation: backtest's two deleted challenges count as issued and never paid.
    const bt = await getFunnel(seller.sellerId, { ...day, operation: "backtest" });
    expect(bt.steps).toMatchObject({ issued: 4, neverPaid: 2, proofs: 3, refused: 1, verified: 2, settled: 2 });
    // A rail: issued still counts every 402 of the operation (a challenge offers every rail).
    const mpp = await getFunnel(seller.sellerId, { ...day, rail: "mpp" });
    expect(mpp.steps).toMatchObject({ issued: 15, neverPaid: 3, proofs: 3, refused: 1, verified: 2, settled: 2 });
    // The day before and after hold nothing of it.
    expect((await getFunnel(seller.sellerId, { preset: "custom", from: "2025-06-03", to: "2025-06-03" })).steps.issued).toBe(0);
  });

  it("margin: gas in ETH always, in USD only at the rate the seller set", async () => {
    const without = await getMargin(seller.sellerId, day);
    expect(without.rate).toBeNull();
    expect(without.total).toMatchObject({ calls: 10, netUsd: F.netUsd, gasEth: F.gasEth, gasKnown: 10, gasUsd: null, marginUsd: null, costKnownForAll: true });
    const agg = without.rows.filter((r) => r.operation === "aggregates");
    expect(agg.map((r) => [r.rail, r.calls])).toEqual([
      ["x402", 4],
      ["mpp", 1],
    ]);

    await updateSellerSettings({ sellerId: seller.sellerId, actorId: seller.userId, settings: { explorerTxUrls: {}, ethUsd: "2500" } });
    const withRate = await getMargin(seller.sellerId, day);
    expect(withRate.rate).toMatchObject({ ethUsd: "2500.000000" });
    // 0.000006 ETH x $2,500 = $0.015; margin 1.11 - 0.015 = 1.095 (98.6 % of revenue).
    expect(withRate.total).toMatchObject({ gasUsd: "0.015000", marginUsd: "1.095000", marginPercent: "98.6", gasPerCallUsd: "0.001500" });
    const avg = withRate.rows.find((r) => r.operation === "avg_interest_rates")!;
    // $0.01 calls: $0.0015 of gas each -> 85 % margin.
    expect(avg).toMatchObject({ calls: 3, netUsd: "0.030000", gasUsd: "0.004500", marginUsd: "0.025500", marginPercent: "85.0" });
  });

  it("paying wallets: spend net of refunds, calls and rails, biggest first", async () => {
    const w = await listPayingWallets(seller.sellerId, day);
    expect(w.total).toBe(4);
    expect(w.payers.map((p) => [p.payer.slice(0, 4), p.netUsd, p.calls, p.rails.sort().join("+")])).toEqual(
      [
        ["0x44", "0.530000", 4, "x402"],
        ["0x11", "0.540000", 3, "mpp+x402"],
        ["0x22", "0.020000", 1, "x402"],
        ["0x33", "0.020000", 2, "mpp+x402"],
      ].sort((a, b) => Number(b[1]) - Number(a[1]) || String(a[0]).localeCompare(String(b[0]))),
    );
  });
});
