// The shelf's stock and ETF files served as aggregates: what an agent gets is the file's own numbers on the basis the
// file has (fidelity against the CSVs and catalog.json), and `adjusted` never serves prices the file does not hold.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aggregatesResponse } from "../operations/aggregates/contract";
import { getAggregates } from "../operations/aggregates/get-aggregates";
import { embeddedProviders } from "./embedded";

const providers = embeddedProviders();
const day = { multiplier: 1, timespan: "day" as const, adjusted: true, sort: "asc" as const, limit: 50000 };
const catalog = JSON.parse(fs.readFileSync(path.join(process.cwd(), "data/stocks/catalog.json"), "utf8")) as {
  ticker: string;
  first: string;
  last: string;
  rows: number;
  adjustment: { dividends: string };
}[];
const fileRows = (ticker: string) =>
  fs
    .readFileSync(path.join(process.cwd(), `data/stocks/${ticker}.csv`), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));

describe("data/stocks through the shared bars source", () => {
  it.each(catalog.map((c) => [c.ticker, c] as const))("%s: every row of the file, first to last, on its basis", async (ticker, c) => {
    const res = await getAggregates({ ticker, from: c.first, to: c.last, ...day }, { providers });
    expect(aggregatesResponse.parse(res)).toBeTruthy();
    expect(res.data.count).toBe(c.rows);
    expect(res.series).toMatchObject({ first_date: c.first, last_date: c.last, dividend_adjusted: c.adjustment.dividends.startsWith("applied") });
    if (ticker === "GOOG") return; // adjusted=true applies the 2022 split: below
    const served = res.data.bars.map((b) => [b.open, b.high, b.low, b.close, b.volume].join(","));
    expect(served).toEqual(fileRows(ticker).map((r) => r.slice(1).map(Number).join(",")));
  });

  it("MSFT and the sector ETFs are dividend-adjusted: adjusted=false is refused, not served", async () => {
    for (const ticker of ["MSFT", "XLK"]) {
      const err = await getAggregates({ ticker, from: "2017-01-03", to: "2024-01-10", ...day, adjusted: false }, { providers }).catch((e) => e);
      expect(err).toMatchObject({ code: "not_included", status: 403, reason: "unadjusted_not_included" });
      expect(err.detail).toContain("dividend-adjusted");
    }
    const msft = await getAggregates({ ticker: "MSFT", from: "2010-01-04", to: "2010-01-04", ...day }, { providers });
    // The file's row 2010-01-04, float noise and all: 25.703000000000003, 26.08, 25.65, 25.954, 45790852.
    expect(msft.data.bars[0]).toMatchObject({ open: 25.703000000000003, high: 26.08, low: 25.65, close: 25.954, volume: 45790852 });
    expect(msft.series!.prices).toContain("dividend-adjusted");
  });

  it("GOOG: adjusted=true applies the 20:1 split of 2022-07-15; adjusted=false is the file from 2014-04-03 only", async () => {
    const adj = await getAggregates({ ticker: "GOOG", from: "2017-01-03", to: "2017-01-03", ...day }, { providers });
    // The file's 2017-01-03: 778.809998, 789.630005, 775.799988, 786.140015, 1657300; /20 to the exact decimal, volume x20.
    expect(adj.data.bars[0]).toMatchObject({ open: 38.9404999, high: 39.48150025, low: 38.7899994, close: 39.30700075, volume: 33146000 });
    const raw = await getAggregates({ ticker: "GOOG", from: "2014-04-01", to: "2014-04-03", ...day, adjusted: false }, { providers });
    // 2014-04-01 and 04-02 are the old share class: not served as traded; 2014-04-03 is the file's own row.
    expect(raw.data.bars.map((b) => [b.timestamp!.slice(0, 10), b.close])).toEqual([["2014-04-03", 566.62439]]);
    expect(raw.series).toMatchObject({ first_date: "2014-04-03", last_date: "2018-01-19", dividend_adjusted: false });
    await expect(getAggregates({ ticker: "GOOG", from: "2010-01-04", to: "2010-12-31", ...day, adjusted: false }, { providers })).rejects.toMatchObject({
      code: "not_included",
      reason: "timeframe_not_included",
    });
  });

  it("SPY never split: adjusted=true and false serve the same file prices", async () => {
    const q = { ticker: "SPY", from: "2017-01-03", to: "2017-01-31", ...day };
    const [adj, raw] = await Promise.all([getAggregates(q, { providers }), getAggregates({ ...q, adjusted: false }, { providers })]);
    expect(raw.data.bars).toEqual(adj.data.bars);
    expect(adj.data.bars[0]).toMatchObject({ open: 225.039993, close: 225.240005, volume: 91366500 });
  });

  it("AAPL and SPX answers keep their bars and say their basis", async () => {
    const res = await getAggregates({ ticker: "AAPL", from: "2017-01-03", to: "2017-01-03", ...day }, { providers });
    expect(res.data.bars[0]!.close).toBe(29.0375005);
    expect(res.series).toMatchObject({ kind: "stock", dividend_adjusted: false, first_date: "2013-05-13" });
  });
});
