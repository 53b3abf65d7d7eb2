import { describe, expect, it } from "vitest";
import { db } from "../server/db/client";
import { OPERATIONS, operationsByService } from "../server/market/operations";
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
    // The registry's services, operations and meters, and the free advisor's service, two operations and meter (the
    // shelf grows by one folder and one line; these follow).
    const meters = new Set(OPERATIONS.map((o) => o.meter.key)).size + 1;
    expect(before).toMatchObject({ services: operationsByService().length + 1, operations: OPERATIONS.length + 2, meters, prices: meters });

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
