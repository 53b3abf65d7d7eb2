// The screener: every member and figure as the file holds it (fidelity), the filters, the sort (members without the
// value last either way), the paging, and the answer's dating and sourcing; the README states what the file holds.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenerQuery, screenerResponse } from "./contract";
import { getScreener } from "./index";

const q = (o: Record<string, string> = {}) => screenerQuery.parse(o);
const csv = fs.readFileSync(path.join(process.cwd(), "data/screeners/sp500-constituents.csv"), "utf8");
const csvLines = csv.trim().split("\n").slice(1);

describe("screener fidelity", () => {
  it("serves all 503 members, every figure equal to the file's (empty fields null)", () => {
    const rows = [];
    for (let offset = 0; offset < 600; offset += 100) rows.push(...getScreener(q({ sort: "symbol", order: "asc", limit: "100", offset: String(offset) })).rows);
    expect(rows).toHaveLength(503);
    const bySymbol = new Map(rows.map((r) => [r.symbol, r]));
    const cols = [
      "price",
      "pe_trailing",
      "dividend_yield",
      "eps_trailing",
      "week52_low",
      "week52_high",
      "market_cap",
      "ebitda",
      "price_to_sales",
      "price_to_book",
    ] as const;
    for (const line of csvLines) {
      // Quoted names and sub-industries hold commas; the numbers are the last ten fields.
      const fields = line.split(",");
      const nums = fields.slice(-10).map((v) => (v === "" ? null : Number(v)));
      const r = bySymbol.get(fields[0]!)!;
      expect(cols.map((c) => r[c])).toEqual(nums);
    }
    expect(bySymbol.get("AAPL")).toMatchObject({ name: "Apple Inc.", gics_sub_industry: "Technology Hardware, Storage & Peripherals", pe_trailing: 35.475918 });
  });

  it("dates the figures and names their origin and what the sector column is", () => {
    const a = screenerResponse.parse(getScreener(q()));
    expect(a).toMatchObject({ source: "yahoo_finance", as_of: "2026-08-22T00:34:37Z", index: "S&P 500", members: 503, total: 503, count: 25, next_offset: 25 });
    expect(a.figures).toContain("2026-08-22T00:34:37Z");
    expect(a.sector_note).toContain("not one of the 11 GICS sectors");
    expect(a.provenance).toContain("datasets/s-and-p-500-companies-financials @ 44d0ca30");
  });
});

describe("screener filters, sort and paging", () => {
  it("ranges leave out members without the figure; bounds are inclusive", () => {
    const a = getScreener(q({ min_pe: "10", max_pe: "15", min_dividend_yield: "0.04", limit: "100" }));
    expect(a.total).toBeGreaterThan(0);
    for (const r of a.rows) {
      expect(r.pe_trailing).toBeGreaterThanOrEqual(10);
      expect(r.pe_trailing).toBeLessThanOrEqual(15);
      expect(r.dividend_yield).toBeGreaterThanOrEqual(0.04);
    }
    // 104 members report no dividend yield: a min of 0 still leaves them out.
    expect(getScreener(q({ min_dividend_yield: "0" })).total).toBe(503 - 104);
  });

  it("text and sub-industry filters are case-insensitive substrings", () => {
    expect(getScreener(q({ search: "aapl" })).rows.map((r) => r.symbol)).toEqual(["AAPL"]);
    const semis = getScreener(q({ sub_industry: "SEMICONDUCTOR", limit: "100" }));
    expect(new Set(semis.rows.map((r) => r.gics_sub_industry))).toEqual(new Set(["Semiconductors", "Semiconductor Materials & Equipment"]));
  });

  it("sorts by any column, members without it last in both orders, ties by symbol", () => {
    const all = (order: string) => {
      const rows = [];
      for (let offset = 0; offset < 600; offset += 100) rows.push(...getScreener(q({ sort: "pe_trailing", order, limit: "100", offset: String(offset) })).rows);
      return rows;
    };
    for (const order of ["asc", "desc"]) {
      const pes = all(order).map((r) => r.pe_trailing);
      const held = pes.filter((x) => x !== null) as number[];
      expect(pes.slice(held.length).every((x) => x === null)).toBe(true);
      expect(held).toEqual([...held].sort((a, b) => (order === "asc" ? a - b : b - a)));
    }
  });

  it("pages with offset and next_offset to the end", () => {
    const last = getScreener(q({ limit: "100", offset: "500" }));
    expect([last.count, last.next_offset]).toEqual([3, null]);
    expect(getScreener(q({ offset: "1000" })).rows).toEqual([]);
  });
});

describe("README", () => {
  it("states the file's members and the run's date", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    expect(readme).toContain(`${csvLines.length} members`);
    expect(readme).toContain("2026-08-22T00:34:37Z");
  });
});
