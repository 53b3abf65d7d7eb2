// Recording the equity-perp snapshot makes basis work offline: record-basis-snapshot's recorder against
// Hyperliquid and Massive replayed locally (the committed snapshot's perp data and closes, as the venues answer
// them), then the embedded provider serves what it wrote. The recording lands in a temporary MARKET_DATA_ROOT,
// never in data/market.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedProviders, resetEmbeddedCache } from "../../providers/embedded";
import { loadRecordedBasisSnapshot, startBasisReplayServer } from "../../test/basis-replay";
import { recordBasisSnapshot } from "./basis-snapshot";
import { basisResponse } from "./contract";
import { getBasis } from "./get-basis";
import { PERP_SNAPSHOT_FILE } from "./perps";

// The committed snapshot's moment (03:08 in New York, market closed): its closes are the last two sessions then.
const RECORDED_AT = "2026-09-30T07:08:13.000Z";
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
  file = path.join(dir, "data", PERP_SNAPSHOT_FILE);
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
    const committed = loadRecordedBasisSnapshot();
    expect(doc.provenance).toMatchObject({ kind: "recorded", recorded_at: RECORDED_AT });
    expect(doc.provenance.source).toContain("record-basis-snapshot.ts");
    expect(doc.perpDexs).toEqual(committed.perpDexs);
    expect(doc.metaAndAssetCtxs).toEqual(committed.metaAndAssetCtxs);
    // Price = the last daily close, prev_close = the one before, stamped 16:00 New York of the last session: the
    // committed quotes exactly.
    expect(doc.equityQuotes).toEqual(committed.equityQuotes);
    expect(res).toEqual({ perps: 7, quotes: 7 });
    const posts = replay.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body));
    expect(posts).toEqual([{ type: "perpDexs" }, { type: "metaAndAssetCtxs", dex: "xyz" }]);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("then the embedded provider serves basis from it: contract, provenance, limit and min_basis", async () => {
    resetEmbeddedCache();
    const all = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() });
    expect(basisResponse.parse(all)).toBeTruthy();
    expect(all.as_of).toBe(RECORDED_AT);
    expect(all.venue_map).toEqual({ xyz: "XYZ" });
    expect(all.provenance).toMatchObject({ kind: "recorded", as_of: RECORDED_AT });
    expect(all.total_available).toBe(7);
    expect(all.rows.find((r) => r.perp_symbol === "xyz:TSLA")).toMatchObject({
      equity_price: 352.84,
      equity_prev_close: 357.45,
      perp_mark: 354.62,
      comparable: true,
    });
    expect(all.us_market_open).toBe(false);
    const wide = await getBasis({ limit: 2, min_basis: 0.5 }, { providers: embeddedProviders() });
    // HOOD 2.5985%, COIN -0.5473%, TSLA 0.5045% are at least 0.5% wide; limit 2 keeps the two widest.
    expect(wide.rows.map((r) => [r.ticker, r.basis_percent])).toEqual([
      ["HOOD", 2.5985],
      ["COIN", -0.5473],
    ]);
    expect(wide.total_available).toBe(7);
  });
});
