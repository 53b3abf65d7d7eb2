// The per-wallet cap on value delivered before settlement, set in the console: bounded (0 to $1,000, at most six
// decimals), null back to the default, saved with a settings.update audit row (none when nothing changed), bad input
// refused with nothing written.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { getSellerSettings } from "./get-seller-settings";
import { updateUnsettledCap } from "./update-unsettled-cap";

let s: { sellerId: string; userId: string };
const audits = () => db.auditLog.findMany({ where: { sellerId: s.sellerId, action: "settings.update" }, orderBy: { createdAt: "asc" } });
const stored = async () => (await db.sellerSettings.findUnique({ where: { sellerId: s.sellerId } }))?.unsettledCapMicros ?? null;
const set = (capUsd: unknown) => updateUnsettledCap({ sellerId: s.sellerId, actorId: s.userId, cap: { capUsd } });

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  s = await seedMarketSeller(db, {
    slug: `cap-${tag}`,
    name: "Cap",
    hosts: [`cap-${tag}.test`],
    email: `cap-${tag}@cap.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
});

describe("the unsettled cap setting", () => {
  it("starts at the default, is set and audited once, and goes back to the default", async () => {
    expect((await getSellerSettings(s.sellerId)).unsettledCap).toEqual({ usd: null, defaultUsd: "0.500000", maxUsd: "1000.000000" });
    expect(await set("2.5")).toMatchObject({ usd: "2.500000" });
    expect(await stored()).toBe(2_500_000n);
    expect(await set(" 2.500000 ")).toMatchObject({ usd: "2.500000" });
    expect(await set("0")).toMatchObject({ usd: "0.000000" });
    expect(await stored()).toBe(0n);
    expect(await set(null)).toMatchObject({ usd: null });
    expect(await stored()).toBeNull();
    expect((await audits()).map((a) => [a.before, a.after])).toEqual([
      [{ unsettledCapMicros: null }, { unsettledCapMicros: "2500000" }],
      [{ unsettledCapMicros: "2500000" }, { unsettledCapMicros: "0" }],
      [{ unsettledCapMicros: "0" }, { unsettledCapMicros: null }],
    ]);
  });

  it("refuses amounts out of bounds or malformed, writing nothing", async () => {
    await set("1000");
    const before = (await audits()).length;
    for (const bad of ["-1", "1000.000001", "abc", "1.0000001", "1e3", 5, "12345678901234567"])
      await expect(set(bad), String(bad)).rejects.toMatchObject({ code: "invalid_request" });
    expect(await stored()).toBe(1_000_000_000n);
    expect(await audits()).toHaveLength(before);
  });

  it("the cap across all wallets is its own setting: default $5, at most $100,000, audited under its own name", async () => {
    const seller = (capUsd: unknown) => updateUnsettledCap({ sellerId: s.sellerId, actorId: s.userId, cap: { capUsd, scope: "seller" } });
    expect((await getSellerSettings(s.sellerId)).sellerUnsettledCap).toEqual({ usd: null, defaultUsd: "5.000000", maxUsd: "100000.000000" });
    const walletBefore = await stored();
    expect(await seller("25")).toMatchObject({ usd: "25.000000" });
    expect((await db.sellerSettings.findUniqueOrThrow({ where: { sellerId: s.sellerId } })).sellerUnsettledCapMicros).toBe(25_000_000n);
    expect(await stored()).toBe(walletBefore);
    expect((await audits()).at(-1)).toMatchObject({ before: { sellerUnsettledCapMicros: null }, after: { sellerUnsettledCapMicros: "25000000" } });
    await expect(seller("100000.01")).rejects.toMatchObject({ code: "invalid_request" });
    expect(await seller(null)).toMatchObject({ usd: null });
  });
});
