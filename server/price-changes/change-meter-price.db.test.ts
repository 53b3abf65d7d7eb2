import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { parseUsd } from "../lib/money";
import { getCatalog } from "../catalog/catalog";
import { findSellerById } from "../catalog/catalog.queries";
import { changeMeterPrice } from "./change-meter-price";
import { getSellerOverview } from "../catalog/get-seller-overview";

async function seller(tag: string) {
  return seedMarketSeller(db, {
    slug: `console-${tag}`,
    name: `Console ${tag}`,
    hosts: [`console-${tag}.test`],
    email: `${tag}@console.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
}

describe("changeMeterPrice", () => {
  it("writes the price, an audit row and a catalog version bump together", async () => {
    const a = await seller("a");
    const overview = await getSellerOverview(a.sellerId);
    const meter = overview.meters.find((m) => m.key === "aggregates")!;
    const before = (await findSellerById(a.sellerId))!;
    const cachedBefore = await getCatalog(before);

    const res = await changeMeterPrice({ sellerId: a.sellerId, actorId: a.userId, meterId: meter.id, amountUsd: "0.025" });
    expect(res).toEqual({ meter: "aggregates", beforeUsd: "0.020000", afterUsd: "0.025000" });

    const after = (await findSellerById(a.sellerId))!;
    expect(after.catalogVersion).toBe(before.catalogVersion + 1);
    const catalog = await getCatalog(after);
    expect(catalog).not.toBe(cachedBefore);
    expect(catalog.meters.find((m) => m.key === "aggregates")!.priceMicros).toBe(25_000n);
    const audit = await db.auditLog.findMany({ where: { sellerId: a.sellerId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "price.update",
      actorId: a.userId,
      before: { meter: "aggregates", amountMicros: "20000" },
      after: { meter: "aggregates", amountMicros: "25000" },
    });
  });

  it("never touches another seller's meter", async () => {
    const a = await seller("owner");
    const b = await seller("intruder");
    const aMeter = (await getSellerOverview(a.sellerId)).meters.find((m) => m.key === "backtest")!;
    await expect(changeMeterPrice({ sellerId: b.sellerId, actorId: b.userId, meterId: aMeter.id, amountUsd: "9" })).rejects.toMatchObject({
      code: "not_found",
    });
    const price = await db.price.findUnique({ where: { meterId: aMeter.id } });
    expect(price!.amountMicros).toBe(500_000n);
    expect(await db.auditLog.count({ where: { sellerId: { in: [a.sellerId, b.sellerId] } } })).toBe(0);
  });

  it("refuses bad amounts without writing anything", async () => {
    const a = await seller("bad");
    const meter = (await getSellerOverview(a.sellerId)).meters[0]!;
    for (const amountUsd of ["abc", "-1", "0.0000001", "1e3", "1000.000001"])
      await expect(changeMeterPrice({ sellerId: a.sellerId, actorId: a.userId, meterId: meter.id, amountUsd })).rejects.toMatchObject({
        code: "invalid_request",
      });
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId } })).toBe(0);
  });

  it("keeps concurrent price changes consistent: one audit row each, final price is one of them", async () => {
    const a = await seller("race");
    const meter = (await getSellerOverview(a.sellerId)).meters.find((m) => m.key === "archive")!;
    const amounts = Array.from({ length: 20 }, (_, i) => `0.${String(i + 10).padStart(2, "0")}`);
    await Promise.all(amounts.map((amountUsd) => changeMeterPrice({ sellerId: a.sellerId, actorId: a.userId, meterId: meter.id, amountUsd })));
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId } })).toBe(20);
    const s = (await findSellerById(a.sellerId))!;
    expect(s.catalogVersion).toBe(21);
    const final = await db.price.findUnique({ where: { meterId: meter.id } });
    expect(amounts.map((x) => parseUsd(x))).toContain(final!.amountMicros);
  });
});
