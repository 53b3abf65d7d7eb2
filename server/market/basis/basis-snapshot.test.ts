// Recording the equity-perp snapshot makes basis work offline: record-basis-snapshot's recorder against
// Hyperliquid and Massive replayed locally (the test-only shape fixture), then the embedded provider serves
// what it wrote. The recording lands in a temporary MARKET_DATA_ROOT, never in data/market.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basisResponse } from "../../contracts/market";
import { embeddedProviders, PERP_SNAPSHOT_FILE, resetEmbeddedCache } from "../providers/embedded";
import { loadBasisShapeFixture, startBasisReplayServer } from "../test/basis-replay";
import { recordBasisSnapshot } from "./basis-snapshot";
import { getBasis } from "./get-basis";

const RECORDED_AT = "2025-08-15T20:30:00.000Z"; // a Friday, 16:30 in New York: market closed
let replay: Awaited<ReturnType<typeof startBasisReplayServer>>;
let dir = "";
let savedRoot: string | undefined;
let file = "";

beforeAll(async () => {
  replay = await startBasisReplayServer();
  savedRoot = process.env.MARKET_DATA_ROOT;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "market-data-"));
  fs.mkdirSync(path.join(dir, "data/market/perps"), { recursive: true });
  fs.copyFileSync(path.join(process.cwd(), "data/market/perps/equity-perp-tickers.json"), path.join(dir, "data/market/perps/equity-perp-tickers.json"));
  process.env.MARKET_DATA_ROOT = dir;
  resetEmbeddedCache();
  file = path.join(dir, "data/market", PERP_SNAPSHOT_FILE);
});

afterAll(async () => {
  await replay.close();
  if (savedRoot === undefined) delete process.env.MARKET_DATA_ROOT;
  else process.env.MARKET_DATA_ROOT = savedRoot;
  fs.rmSync(dir, { recursive: true, force: true });
  resetEmbeddedCache();
});

describe("recordBasisSnapshot", () => {
  it("before a recording the embedded basis is 403 not_included", async () => {
    await expect(getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() })).rejects.toMatchObject({ code: "not_included", status: 403 });
  });

  it("writes the venues' answers as returned, with provenance.kind recorded", async () => {
    const res = await recordBasisSnapshot(
      { hyperliquidBaseUrl: replay.base, massiveBaseUrl: replay.base, massiveApiKey: "test-key", now: () => new Date(RECORDED_AT) },
      file,
    );
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    const fixture = loadBasisShapeFixture();
    expect(doc.provenance).toMatchObject({ kind: "recorded", recorded_at: RECORDED_AT });
    expect(doc.perpDexs).toEqual(fixture.perpDexs);
    expect(doc.metaAndAssetCtxs).toEqual(fixture.metaAndAssetCtxs);
    expect(Object.keys(doc.equityQuotes).sort()).toEqual(Object.keys(fixture.equityQuotes).sort());
    expect(doc.equityQuotes.TSLA).toMatchObject({ price: fixture.equityQuotes.TSLA!.price, prev_close: fixture.equityQuotes.TSLA!.prev_close });
    expect(res.quotes).toBe(Object.keys(fixture.equityQuotes).length);
    const posts = replay.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body));
    expect(posts).toEqual([{ type: "perpDexs" }, { type: "metaAndAssetCtxs", dex: "xyz" }, { type: "metaAndAssetCtxs", dex: "flx" }]);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("then the embedded provider serves basis from it: contract, limit and min_basis", async () => {
    resetEmbeddedCache();
    const all = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() });
    expect(basisResponse.parse(all)).toBeTruthy();
    expect(all.as_of).toBe(RECORDED_AT);
    expect(all.venue_map).toEqual({ xyz: "XYZ", flx: "Felix Exchange" });
    expect(all.note).toBe(`Embedded snapshot recorded ${RECORDED_AT}; set MARKET_PROVIDER=live for live data.`);
    expect(all.total_available).toBe(all.rows.length);
    expect(all.rows.some((r) => !r.comparable)).toBe(true);
    expect(all.rows.map((r) => r.perp_symbol)).not.toContain("xyz:GOLD");
    expect(all.rows.find((r) => r.perp_symbol === "xyz:TSLA")).toMatchObject({
      equity_price: 330.56,
      equity_prev_close: 335.58,
      perp_mark: 347.8,
      comparable: true,
    });
    expect(all.us_market_open).toBe(false);
    const wide = await getBasis({ limit: 3, min_basis: 1 }, { providers: embeddedProviders() });
    expect(wide.count).toBeLessThanOrEqual(3);
    expect(wide.rows.every((r) => r.comparable && Math.abs(r.basis_percent!) >= 1)).toBe(true);
    const abs = wide.rows.map((r) => Math.abs(r.basis_percent!));
    expect(abs).toEqual([...abs].sort((a, b) => b - a));
  });
});
