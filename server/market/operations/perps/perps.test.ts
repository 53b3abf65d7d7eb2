// Perps offline: the recorded contexts served as recorded (fidelity against the files), the computed columns, filters
// and sorting, and the coverage naming exactly what the recordings hold.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { perpsQuery, perpsResponse } from "./contract";
import { getPerps } from "./get-perps";
import { perps } from "./index";

const deps = { providers: embeddedProviders() };
const q = (o: Record<string, string> = {}) => perpsQuery.parse(o);
const read = (f: string) =>
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "data/crypto/perps", f), "utf8")) as [
    { universe: { name: string; maxLeverage: number }[] },
    Record<string, string>[],
  ];

describe("perps fidelity", () => {
  it("serves every recorded market, each figure as the reply has it, each row dated by its recording", async () => {
    const a = perpsResponse.parse(await getPerps(q({ limit: "500" }), deps));
    expect(a.total_available).toBe(29);
    for (const [file, at] of [
      ["metaAndAssetCtxs-default-BTC-ETH.json", "2026-09-30T13:38:00Z"],
      ["metaAndAssetCtxs-xyz-equities.json", "2026-09-30T07:08:13Z"],
    ] as const) {
      const [meta, ctxs] = read(file);
      meta.universe.forEach((u, i) => {
        const c = ctxs[i]!;
        const row = a.rows.find((r) => r.symbol === u.name)!;
        expect([
          row.mark_price,
          row.oracle_price,
          row.mid_price,
          row.funding_rate_hourly,
          row.open_interest,
          row.premium,
          row.day_volume_usd,
          row.max_leverage,
        ]).toEqual([
          ...[Number(c.markPx), Number(c.oraclePx), Number(c.midPx), Number(c.funding), Number(c.openInterest), Number(c.premium), Number(c.dayNtlVlm)],
          u.maxLeverage,
        ]);
        expect(row.as_of).toBe(at);
      });
    }
    expect(a).toMatchObject({ source: "hyperliquid", recorded: true, as_of: "2026-09-30T13:38:00Z" });
    expect(a.recordings!.map((r) => r.dex)).toEqual(["xyz", null]);
  });

  it("computes APR and USD open interest, and says they are computed", async () => {
    const btc = (await getPerps(q({ symbols: "BTC" }), deps)).rows[0]!;
    // funding 0.0000125 an hour x 24 x 365 x 100; open interest 33897.6701800001 BTC x mark 84359.0.
    expect(btc).toMatchObject({ kind: "crypto", dex: null, funding_apr_percent: 10.95, open_interest_usd: Math.round(33897.6701800001 * 84359 * 1e6) / 1e6 });
    expect((await getPerps(q(), deps)).note).toContain("computed here");
  });

  it("filters by symbols (venue or bare name, any case) and kind; sorts with missing values last", async () => {
    expect((await getPerps(q({ symbols: "tsla,xyz:NVDA,eth" }), deps)).rows.map((r) => r.symbol).sort()).toEqual(["ETH", "xyz:NVDA", "xyz:TSLA"]);
    expect((await getPerps(q({ kind: "crypto" }), deps)).rows.map((r) => r.symbol)).toEqual(["BTC", "ETH"]);
    const byFunding = (await getPerps(q({ sort: "funding_rate_hourly", order: "asc", limit: "500" }), deps)).rows.map((r) => r.funding_rate_hourly!);
    expect(byFunding).toEqual([...byFunding].sort((x, y) => x - y));
  });

  it("its coverage names the recordings' moments and markets, and UNH as not recorded", () => {
    const cov = perps.coverage("embedded", { feeds: [] });
    expect(cov.summary).toContain("validator-run dex recorded 2026-09-30T13:38:00Z: BTC, ETH");
    expect(cov.summary).toContain("dex xyz recorded 2026-09-30T07:08:13Z: xyz:TSLA, xyz:NVDA");
    expect(cov.summary).toContain("Not in the recordings: UNH.");
    expect(cov.entities).toHaveLength(29);
  });
});
