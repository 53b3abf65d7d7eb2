import { describe, expect, it } from "vitest";
import { avgInterestRatesResponse, basisResponse } from "../../contracts/market";
import { embeddedProviders } from "../providers/embedded";
import type { PerpContext } from "../providers/types";
import { getAvgInterestRates } from "../rates/get-avg-interest-rates";
import { basisRowFor, orderBasisRows } from "./compute-basis";
import { getBasis } from "./get-basis";

const ctx = (name: string, markPx: number | null, funding = 0.0000125): PerpContext => ({ dex: "xyz", symbol: `xyz:${name}`, name, markPx, oraclePx: markPx, funding, openInterest: 10, dayNtlVlm: 1000 });

describe("basisRowFor", () => {
  it("computes basis, overnight move and funding APR", () => {
    const r = basisRowFor(ctx("TSLA", 102, 0.00001), { price: 100, prev_close: 98, as_of: "2025-01-01T21:00:00Z" });
    expect(r).toMatchObject({ basis_percent: 2, basis_absolute: 2, equity_change_percent: 2.0408, basis_vs_prev_close_percent: 4.0816, direction: "premium", comparable: true, excluded_reason: null });
    // 0.00001 per hour x 24 x 365 x 100 = 8.76 % a year
    expect(r.perp_funding_apr_percent).toBe(8.76);
    expect(basisRowFor(ctx("X", 99.96), { price: 100, prev_close: 100, as_of: "" }).direction).toBe("flat");
    expect(basisRowFor(ctx("X", 99), { price: 100, prev_close: 100, as_of: "" }).direction).toBe("discount");
  });

  it("marks rows it cannot compare, with the reason", () => {
    expect(basisRowFor(ctx("SNDK", 48), undefined)).toMatchObject({ comparable: false, excluded_reason: "no_equity_quote", direction: "unknown", basis_percent: null });
    expect(basisRowFor(ctx("INTC", null), { price: 24, prev_close: 23, as_of: "" })).toMatchObject({ comparable: false, excluded_reason: "no_perp_mark", basis_vs_prev_close_percent: null });
  });

  it("orders widest dislocation first, non-comparable last", () => {
    const rows = orderBasisRows([basisRowFor(ctx("A", 101), { price: 100, prev_close: 100, as_of: "" }), basisRowFor(ctx("B", null), undefined), basisRowFor(ctx("C", 97), { price: 100, prev_close: 100, as_of: "" })]);
    expect(rows.map((r) => r.ticker)).toEqual(["C", "A", "B"]);
  });
});

describe("embedded basis and rates", () => {
  it("basis validates against the contract, applies limit and min_basis, and says the snapshot is a fixture", async () => {
    const all = await getBasis({ limit: 100, min_basis: 0 }, { providers: embeddedProviders() });
    expect(basisResponse.parse(all)).toBeTruthy();
    expect(all.total_available).toBe(all.rows.length);
    expect(all.rows.some((r) => !r.comparable)).toBe(true);
    expect(all.note).toMatch(/fixture/);
    expect(all.us_market_open).toBe(false);
    const wide = await getBasis({ limit: 3, min_basis: 1 }, { providers: embeddedProviders() });
    expect(wide.count).toBeLessThanOrEqual(3);
    expect(wide.rows.every((r) => r.comparable && Math.abs(r.basis_percent!) >= 1)).toBe(true);
    const abs = wide.rows.map((r) => Math.abs(r.basis_percent!));
    expect(abs).toEqual([...abs].sort((a, b) => b - a));
  });

  it("average interest rates cover bills, notes, bonds, TIPS, FRNs, savings and the aggregates", async () => {
    const res = await getAvgInterestRates({ providers: embeddedProviders() });
    expect(avgInterestRatesResponse.parse(res)).toBeTruthy();
    const names = res.rates.map((r) => r.security);
    for (const s of ["Treasury Bills", "Treasury Notes", "Treasury Bonds", "Treasury Inflation-Protected Securities (TIPS)", "Treasury Floating Rate Notes (FRN)", "United States Savings Securities", "Total Marketable", "Total Interest-bearing Debt"]) {
      expect(names).toContain(s);
    }
    expect(res).toMatchObject({ source: "us_treasury", unit: "percent", record_date: "2025-05-31", as_of: null });
  });
});
