// Console settings: link formats per network and the ETH/USD rate, saved with a settings.update audit row in the same
// transaction (none when nothing changed), bad input refused with nothing written.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { isAppError } from "../errors";
import { newId } from "../lib/ids";
import { explorerTxUrl } from "../chain/explorer-links";
import { getSellerSettings } from "./get-seller-settings";
import { updateSellerSettings } from "./update-seller-settings";

let s: { sellerId: string; userId: string };
const audits = () => db.auditLog.findMany({ where: { sellerId: s.sellerId, action: "settings.update" }, orderBy: { createdAt: "asc" } });
const TX = `0x${"ab".repeat(32)}`;

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  s = await seedMarketSeller(db, {
    slug: `set-${tag}`,
    name: "Settings",
    hosts: [`set-${tag}.test`],
    email: `set-${tag}@set.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
});

describe("console settings", () => {
  it("defaults: Base links to basescan, no rate", async () => {
    const got = await getSellerSettings(s.sellerId);
    expect(got.ethUsd).toBeNull();
    expect(got.explorers.find((e) => e.network === "eip155:8453")).toMatchObject({ format: null, defaultFormat: "https://basescan.org/tx/{tx}" });
    expect(explorerTxUrl({}, "eip155:8453", TX)).toBe(`https://basescan.org/tx/${TX}`);
    expect(explorerTxUrl({}, "eip155:1", TX)).toBeNull();
    expect(explorerTxUrl({ "eip155:8453": "" }, "eip155:8453", TX)).toBeNull();
    expect(explorerTxUrl({}, "eip155:8453", "not-a-hash")).toBeNull();
  });

  it("saves formats and the rate with one audit row of what changed", async () => {
    const saved = await updateSellerSettings({
      sellerId: s.sellerId,
      actorId: s.userId,
      settings: { explorerTxUrls: { "eip155:8453": " http://localhost:4000/tx/{tx} ", "eip155:84532": "" }, ethUsd: "3012.55" },
    });
    expect(saved.ethUsd).toMatchObject({ usd: "3012.550000" });
    expect(Date.parse(saved.ethUsd!.setAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(saved.explorers.find((e) => e.network === "eip155:8453")!.format).toBe("http://localhost:4000/tx/{tx}");
    expect(saved.explorers.find((e) => e.network === "eip155:84532")!.format).toBe("");
    const rows = await audits();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: s.userId,
      targetType: "seller_settings",
      targetId: s.sellerId,
      before: { explorerTxUrls: {}, ethUsdMicros: null },
      after: { explorerTxUrls: { "eip155:8453": "http://localhost:4000/tx/{tx}", "eip155:84532": "" }, ethUsdMicros: "3012550000" },
    });
    // The same values again: no change, no audit row, the rate's time kept.
    const again = await updateSellerSettings({
      sellerId: s.sellerId,
      actorId: s.userId,
      settings: { explorerTxUrls: { "eip155:8453": "http://localhost:4000/tx/{tx}", "eip155:84532": "" }, ethUsd: "3012.55" },
    });
    expect(again.ethUsd!.setAt).toBe(saved.ethUsd!.setAt);
    expect(await audits()).toHaveLength(1);
    // Clearing the rate and a format (null: back to the default).
    const cleared = await updateSellerSettings({ sellerId: s.sellerId, actorId: s.userId, settings: { explorerTxUrls: { "eip155:8453": null }, ethUsd: "" } });
    expect(cleared.ethUsd).toBeNull();
    expect(cleared.explorers.find((e) => e.network === "eip155:8453")!.format).toBeNull();
    expect(await audits()).toHaveLength(2);
  });

  it("refuses bad formats and rates with a 400 naming the field, writing nothing", async () => {
    const before = await getSellerSettings(s.sellerId);
    const count = (await audits()).length;
    const cases: [unknown, string][] = [
      [{ explorerTxUrls: { "eip155:8453": "https://x.test/tx/" }, ethUsd: null }, "explorerTxUrls.eip155:8453"],
      [{ explorerTxUrls: { "eip155:8453": "javascript:alert({tx})" }, ethUsd: null }, "explorerTxUrls.eip155:8453"],
      [{ explorerTxUrls: { "eip155:8453": "https://x.test/{tx}/{tx}" }, ethUsd: null }, "explorerTxUrls.eip155:8453"],
      [{ explorerTxUrls: { "not a network": "https://x.test/tx/{tx}" }, ethUsd: null }, "explorerTxUrls"],
      [{ explorerTxUrls: {}, ethUsd: "-1" }, "ethUsd"],
      [{ explorerTxUrls: {}, ethUsd: "0" }, "ethUsd"],
      [{ explorerTxUrls: {}, ethUsd: "1e3" }, "ethUsd"],
    ];
    for (const [settings, parameter] of cases) {
      const err = await updateSellerSettings({ sellerId: s.sellerId, actorId: s.userId, settings }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAppError(err) && err.code === "invalid_request", JSON.stringify(settings)).toBe(true);
      expect(String((err as { extra?: { parameter?: string } }).extra?.parameter ?? ""), JSON.stringify(settings)).toContain(parameter);
    }
    expect(await getSellerSettings(s.sellerId)).toEqual(before);
    expect(await audits()).toHaveLength(count);
  });
});
