import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../../errors";
import { embeddedProviders, resetEmbeddedCache } from "../../providers/embedded";
import { loadRecordedBasisSnapshot } from "../../test/basis-replay";
import { basisRowFor, orderBasisRows } from "./compute-basis";
import { basisResponse } from "./contract";
import { getBasis } from "./get-basis";
import { embeddedPerps, embeddedQuotes, equityPerpContexts, equityPerpTickers, NO_RECORDED_PERP_SNAPSHOT, PERP_SNAPSHOT_FILE, type PerpContext } from "./perps";

const ctx = (name: string, markPx: number | null, funding = 0.0000125): PerpContext => ({
  dex: "xyz",
  symbol: `xyz:${name}`,
  name,
  markPx,
  oraclePx: markPx,
  funding,
  openInterest: 10,
  dayNtlVlm: 1000,
});

describe("basisRowFor", () => {
  it("computes basis, overnight move and funding APR", () => {
    const r = basisRowFor(ctx("TSLA", 102, 0.00001), { price: 100, prev_close: 98, as_of: "2025-01-01T21:00:00Z" });
    expect(r).toMatchObject({
      basis_percent: 2,
      basis_absolute: 2,
      equity_change_percent: 2.0408,
      basis_vs_prev_close_percent: 4.0816,
      direction: "premium",
      comparable: true,
      excluded_reason: null,
    });
    // 0.00001 per hour x 24 x 365 x 100 = 8.76 % a year
    expect(r.perp_funding_apr_percent).toBe(8.76);
    expect(basisRowFor(ctx("X", 99.96), { price: 100, prev_close: 100, as_of: "" }).direction).toBe("flat");
    expect(basisRowFor(ctx("X", 99), { price: 100, prev_close: 100, as_of: "" }).direction).toBe("discount");
  });

  it("marks rows it cannot compare, with the reason", () => {
    expect(basisRowFor(ctx("SNDK", 48), undefined)).toMatchObject({
      comparable: false,
      excluded_reason: "no_equity_quote",
      direction: "unknown",
      basis_percent: null,
    });
    expect(basisRowFor(ctx("INTC", null), { price: 24, prev_close: 23, as_of: "" })).toMatchObject({
      comparable: false,
      excluded_reason: "no_perp_mark",
      basis_vs_prev_close_percent: null,
    });
  });

  it("orders widest dislocation first, non-comparable last", () => {
    const rows = orderBasisRows([
      basisRowFor(ctx("A", 101), { price: 100, prev_close: 100, as_of: "" }),
      basisRowFor(ctx("B", null), undefined),
      basisRowFor(ctx("C", 97), { price: 100, prev_close: 100, as_of: "" }),
    ]);
    expect(rows.map((r) => r.ticker)).toEqual(["C", "A", "B"]);
  });
});

describe("embedded basis", () => {
  const root = { saved: undefined as string | undefined, dir: "" };
  beforeEach(() => {
    root.saved = process.env.MARKET_DATA_ROOT;
    resetEmbeddedCache();
  });
  afterEach(() => {
    if (root.saved === undefined) delete process.env.MARKET_DATA_ROOT;
    else process.env.MARKET_DATA_ROOT = root.saved;
    if (root.dir) fs.rmSync(root.dir, { recursive: true, force: true });
    root.dir = "";
    resetEmbeddedCache();
  });

  const tempRoot = () => {
    root.dir = fs.mkdtempSync(path.join(os.tmpdir(), "market-data-"));
    fs.mkdirSync(path.join(root.dir, "data/market/perps"), { recursive: true });
    fs.copyFileSync(path.join(process.cwd(), "data/market/perps/equity-perp-tickers.json"), path.join(root.dir, "data/market/perps/equity-perp-tickers.json"));
    process.env.MARKET_DATA_ROOT = root.dir;
    return path.join(root.dir, "data", PERP_SNAPSHOT_FILE);
  };

  it("serves the committed snapshot: its 7 tickers, widest dislocation first, with its provenance", async () => {
    const res = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() });
    expect(basisResponse.parse(res)).toBeTruthy();
    // Hand-checked from the snapshot (perp mark; Stooq close of 2026-09-29; close of 09-28), rounded as served:
    //   HOOD (119.24 - 116.22) / 116.22 = +2.5985%; COIN (188.98 - 190.02) / 190.02 = -0.5473%;
    //   TSLA (354.62 - 352.84) / 352.84 = +0.5045%; NFLX (70.55 - 70.3) / 70.3 = +0.3556%;
    //   AMZN (247.2 - 246.67) / 246.67 = +0.2149%; AMD (608.07 - 607.57) / 607.57 = +0.0823%;
    //   PLTR (186.99 - 186.97) / 186.97 = +0.0107% (flat: within 0.05%).
    expect(res.rows.map((r) => [r.ticker, r.basis_percent, r.direction])).toEqual([
      ["HOOD", 2.5985, "premium"],
      ["COIN", -0.5473, "discount"],
      ["TSLA", 0.5045, "premium"],
      ["NFLX", 0.3556, "premium"],
      ["AMZN", 0.2149, "premium"],
      ["AMD", 0.0823, "premium"],
      ["PLTR", 0.0107, "flat"],
    ]);
    // HOOD in full: funding 0.0000278447 an hour x 24 x 365 x 100 = 24.392% a year; (119.24 - 116.46) / 116.46 =
    // +2.3871% against the previous close; (116.22 - 116.46) / 116.46 = -0.2061% on the day.
    expect(res.rows[0]).toEqual({
      ticker: "HOOD",
      equity_price: 116.22,
      equity_prev_close: 116.46,
      equity_change_percent: -0.2061,
      equity_as_of: "2026-09-29T20:00:00Z",
      perp_symbol: "xyz:HOOD",
      perp_mark: 119.24,
      perp_oracle: 119.15,
      perp_open_interest: 404701.2920000001,
      perp_day_volume_usd: 25971140.9544100165,
      perp_funding_apr_percent: 24.392,
      basis_percent: 2.5985,
      basis_absolute: 3.02,
      basis_vs_prev_close_percent: 2.3871,
      direction: "premium",
      comparable: true,
      excluded_reason: null,
    });
    expect(res).toMatchObject({
      source: "market-data",
      as_of: "2026-09-30T07:08:13Z",
      venue_map: { xyz: "XYZ" },
      us_market_open: false,
      count: 7,
      total_available: 7,
    });
    expect(res.provenance).toEqual({
      kind: "recorded",
      as_of: "2026-09-30T07:08:13Z",
      source:
        "Third-party public recordings: Hyperliquid info API metaAndAssetCtxs (dex xyz, mainnet) recorded 2026-09-30 (joztern755/quantscriptmarket@d2c74fa), and Stooq daily closes of 2026-09-28 and 2026-09-29 (DrRobAnthony/market-data@021bd8e)",
    });
    expect(res.note).toBe(
      "Recorded snapshot of 2026-09-30T07:08:13Z, not live data (provenance.source names the recordings); set MARKET_PROVIDER=live for live data.",
    );
    expect(res.sections).toEqual([
      { title: "premium", tickers: ["HOOD", "TSLA", "NFLX", "AMZN", "AMD"] },
      { title: "discount", tickers: ["COIN"] },
      { title: "flat", tickers: ["PLTR"] },
      { title: "not_comparable", tickers: [] },
    ]);
    // 03:08 in New York: closed, so the reading gives the overnight move the perps imply (mean of the seven
    // basis_vs_prev_close_percent: +0.32%).
    expect(res.reading).toContain("The US market is closed: perps imply an average move of +0.32% against the previous close.");
  });

  it("keeps only the perps that are US stocks, and none delisted", () => {
    // The snapshot's TSLA entries, next to an index and a commodity name (no context values needed to drop them).
    const snap = loadRecordedBasisSnapshot().metaAndAssetCtxs.xyz as [{ universe: { name: string }[] }, Record<string, unknown>[]];
    const tsla = [snap[0].universe[0]!, snap[1][0]!];
    const doc = [
      { universe: [{ name: "xyz:XYZ100" }, tsla[0], { name: "xyz:GOLD" }, { ...tsla[0], name: "xyz:AMZN", isDelisted: true }] },
      [{}, tsla[1], {}, {}],
    ];
    expect(equityPerpContexts("xyz", doc, equityPerpTickers())).toEqual([
      {
        dex: "xyz",
        symbol: "xyz:TSLA",
        name: "TSLA",
        markPx: 354.62,
        oraclePx: 354.4,
        funding: 0.0000218806,
        openInterest: 152492.282,
        dayNtlVlm: 18064933.8466800079,
      },
    ]);
  });

  it("in a data root without a snapshot, basis answers 403 not_included", async () => {
    tempRoot();
    const err = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "not_included", status: 403, detail: NO_RECORDED_PERP_SNAPSHOT });
    expect(err.toBody()).toEqual({ error: "not_included", detail: NO_RECORDED_PERP_SNAPSHOT });
    await expect(embeddedQuotes.getQuotes(["TSLA"])).rejects.toMatchObject({ code: "not_included", detail: NO_RECORDED_PERP_SNAPSHOT });
  });

  it("a snapshot that is not a recording is never served, even at the snapshot's path", async () => {
    // The committed snapshot with its kind changed: only "recorded" is served.
    const file = tempRoot();
    for (const kind of ["fixture", undefined, "Recorded"]) {
      const doc = loadRecordedBasisSnapshot() as { provenance: Record<string, unknown> };
      if (kind === undefined) delete doc.provenance.kind;
      else doc.provenance.kind = kind;
      fs.writeFileSync(file, JSON.stringify(doc));
      resetEmbeddedCache();
      await expect(embeddedPerps.getPerps()).rejects.toMatchObject({ code: "not_included", status: 403 });
      await expect(embeddedQuotes.getQuotes(["TSLA"])).rejects.toMatchObject({ code: "not_included", status: 403 });
    }
  });
});
