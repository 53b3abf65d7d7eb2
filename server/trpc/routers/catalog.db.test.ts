import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { createCaller, sessionFor } from "../../testing/trpc";

describe("catalog router", () => {
  it("scopes every procedure to the signed-in seller", async () => {
    const a = await seedMarketSeller(db, {
      slug: "trpc-a",
      name: "A",
      hosts: ["trpc-a.test"],
      email: "a@trpc.test",
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const b = await seedMarketSeller(db, {
      slug: "trpc-b",
      name: "B",
      hosts: ["trpc-b.test"],
      email: "b@trpc.test",
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const asA = createCaller(sessionFor(a.userId, a.sellerId));
    const asB = createCaller(sessionFor(b.userId, b.sellerId));
    const aOverview = await asA.catalog.overview();
    expect(aOverview.seller.name).toBe("A");
    const aMeter = aOverview.meters.find((m) => m.key === "aggregates")!;
    await expect(asB.catalog.updatePrice({ meterId: aMeter.id, amountUsd: "1" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await asA.catalog.overview()).meters.find((m) => m.key === "aggregates")!.priceUsd).toBe("0.020000");
    expect((await asB.audit.list()).entries).toEqual([]);
  });

  it("refuses callers without a seller session", async () => {
    await expect(createCaller({ session: null }).catalog.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(createCaller(sessionFor("hum_1", "sel_x", "human")).catalog.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
