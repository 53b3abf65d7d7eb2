import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { avgInterestRatesResponse } from "../../contracts/market";
import { AppError } from "../../errors";
import { embeddedPerps, embeddedProviders, embeddedQuotes, NO_RECORDED_PERP_SNAPSHOT, PERP_SNAPSHOT_FILE, resetEmbeddedCache } from "../providers/embedded";
import type { PerpContext } from "../providers/types";
import { getAvgInterestRates } from "../rates/get-avg-interest-rates";
import { loadBasisShapeFixture } from "../test/basis-replay";
import { basisRowFor, orderBasisRows } from "./compute-basis";
import { getBasis } from "./get-basis";

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

describe("embedded basis and rates", () => {
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
    return path.join(root.dir, "data/market", PERP_SNAPSHOT_FILE);
  };

  it("basis answers 403 not_included when no equity-perp snapshot is recorded", async () => {
    tempRoot();
    const err = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "not_included", status: 403, detail: NO_RECORDED_PERP_SNAPSHOT });
    expect(err.toBody()).toEqual({ error: "not_included", detail: NO_RECORDED_PERP_SNAPSHOT });
    await expect(embeddedQuotes.getQuotes(["TSLA"])).rejects.toMatchObject({ code: "not_included", detail: NO_RECORDED_PERP_SNAPSHOT });
  });

  it("a snapshot that is not a recording is never served, even at the snapshot's path", async () => {
    const file = tempRoot();
    for (const kind of ["fixture", undefined, "Recorded"]) {
      const doc = loadBasisShapeFixture() as { provenance: Record<string, unknown> };
      if (kind === undefined) delete doc.provenance.kind;
      else doc.provenance.kind = kind;
      fs.writeFileSync(file, JSON.stringify(doc));
      resetEmbeddedCache();
      await expect(embeddedPerps.getPerps()).rejects.toMatchObject({ code: "not_included", status: 403 });
      await expect(embeddedQuotes.getQuotes(["TSLA"])).rejects.toMatchObject({ code: "not_included", status: 403 });
    }
  });

  it("average interest rates cover bills, notes, bonds, TIPS, FRNs, savings and the aggregates", async () => {
    const res = await getAvgInterestRates({ providers: embeddedProviders() });
    expect(avgInterestRatesResponse.parse(res)).toBeTruthy();
    const names = res.rates.map((r) => r.security);
    for (const s of [
      "Treasury Bills",
      "Treasury Notes",
      "Treasury Bonds",
      "Treasury Inflation-Protected Securities (TIPS)",
      "Treasury Floating Rate Notes (FRN)",
      "United States Savings Securities",
      "Total Marketable",
      "Total Interest-bearing Debt",
    ]) {
      expect(names).toContain(s);
    }
    expect(res).toMatchObject({ source: "us_treasury", unit: "percent", record_date: "2025-05-31", as_of: null });
  });
});
