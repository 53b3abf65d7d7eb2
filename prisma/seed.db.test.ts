import { describe, expect, it } from "vitest";
import { db } from "../server/db/client";
import { seedMarketSeller } from "./seed";

describe("seedMarketSeller", () => {
  it("creates the whole catalog with the part 8 prices, and is idempotent", async () => {
    const input = {
      slug: "seed-test",
      name: "Seed test",
      hosts: ["seed-test.local"],
      email: "seed@test.local",
      password: "pw-123456",
      payTo: null,
      signingSecret: "x".repeat(32),
    };
    const first = await seedMarketSeller(db, input);
    const counts = async () => ({
      services: await db.service.count({ where: { sellerId: first.sellerId } }),
      operations: await db.operation.count({ where: { sellerId: first.sellerId } }),
      meters: await db.meter.count({ where: { sellerId: first.sellerId } }),
      prices: await db.price.count({ where: { sellerId: first.sellerId } }),
      plans: await db.plan.count({ where: { sellerId: first.sellerId } }),
    });
    const before = await counts();
    const again = await seedMarketSeller(db, input);
    expect(again.sellerId).toBe(first.sellerId);
    expect(await counts()).toEqual(before);
    expect(before).toMatchObject({ services: 5, operations: 9, meters: 8, prices: 8 });

    const prices = await db.price.findMany({ where: { sellerId: first.sellerId }, include: { meter: true } });
    const byMeter = Object.fromEntries(prices.map((p) => [p.meter.key, p.amountMicros]));
    expect(byMeter).toMatchObject({
      aggregates: 20_000n,
      archive: 20_000n,
      archive_feed: 20_000n,
      archive_range: 30_000n,
      avg_interest_rates: 10_000n,
      backtest: 500_000n,
      advisor: 0n,
    });
  });
});
