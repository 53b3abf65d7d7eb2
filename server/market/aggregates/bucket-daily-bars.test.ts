import { describe, expect, it } from "vitest";
import { aggregatesResponse } from "../../contracts/market";
import { embeddedProviders } from "../providers/embedded";
import { bucketDailyBars } from "./bucket-daily-bars";
import { getAggregates } from "./get-aggregates";

const d = (date: string, close: number, volume = 100) => ({ date, open: close - 1, high: close + 1, low: close - 2, close, volume });
// Thursday 2024-01-04 .. Tuesday 2024-01-16 (no bars on weekends or on the Monday holiday 01-15).
const DAYS = [d("2024-01-04", 10), d("2024-01-05", 11), d("2024-01-08", 12), d("2024-01-09", 13), d("2024-01-12", 14), d("2024-01-16", 15)];
const q = { from: "2024-01-01", to: "2024-01-31", multiplier: 1, timespan: "day" as const, limit: 5000, sort: "asc" as const };

describe("bucketDailyBars", () => {
  it("stamps daily bars at 00:00 New York (UTC-5 in winter)", () => {
    const bars = bucketDailyBars(DAYS, q);
    expect(bars).toHaveLength(6);
    expect(bars[0]).toEqual({ open: 9, high: 11, low: 8, close: 10, volume: 100, vwap: null, trade_count: null, timestamp: "2024-01-04T05:00:00.000Z" });
  });

  it("builds Sunday-aligned weeks with first open, max high, min low, last close, summed volume", () => {
    const bars = bucketDailyBars(DAYS, { ...q, timespan: "week" });
    expect(bars.map((b) => b.timestamp)).toEqual(["2023-12-31T05:00:00.000Z", "2024-01-07T05:00:00.000Z", "2024-01-14T05:00:00.000Z"]);
    expect(bars[1]).toMatchObject({ open: 11, high: 15, low: 10, close: 14, volume: 300 });
  });

  it("applies the multiplier from `from` and reports only windows with trades", () => {
    const bars = bucketDailyBars(DAYS, { ...q, from: "2024-01-04", multiplier: 3 });
    // windows 01-04..06, 01-07..09, 01-10..12, 01-13..15 (empty), 01-16..18
    expect(bars.map((b) => b.timestamp!.slice(0, 10))).toEqual(["2024-01-04", "2024-01-07", "2024-01-10", "2024-01-16"]);
    expect(bars[0]!.volume).toBe(200);
  });

  it("limit caps base bars read in sort order", () => {
    expect(bucketDailyBars(DAYS, { ...q, limit: 2 }).map((b) => b.close)).toEqual([10, 11]);
    expect(bucketDailyBars(DAYS, { ...q, limit: 2, sort: "desc" }).map((b) => b.close)).toEqual([15, 14]);
    expect(bucketDailyBars(DAYS, { ...q, timespan: "month", limit: 3 })).toMatchObject([{ close: 12, volume: 300, timestamp: "2024-01-01T05:00:00.000Z" }]);
  });

  it("quarter and year windows start on the unit's first day; summer bars are UTC-4", () => {
    const s = [d("2024-07-01", 1), d("2024-09-30", 2), d("2024-10-01", 3)];
    const qs = bucketDailyBars(s, { ...q, from: "2024-08-15", to: "2024-12-31", timespan: "quarter" });
    expect(qs.map((b) => b.timestamp)).toEqual(["2024-07-01T04:00:00.000Z", "2024-10-01T04:00:00.000Z"]);
    // from is 08-15, so 07-01 is outside the window
    expect(qs[0]!.close).toBe(2);
    expect(bucketDailyBars(s, { ...q, from: "2024-01-01", to: "2024-12-31", timespan: "year" })).toHaveLength(1);
  });

  it("an empty window gives no bars", () => {
    expect(bucketDailyBars(DAYS, { ...q, from: "2024-01-06", to: "2024-01-07" })).toEqual([]);
    expect(bucketDailyBars(DAYS, { ...q, from: "2024-01-20", to: "2024-01-10" })).toEqual([]);
  });
});

describe("embedded aggregates", () => {
  const providers = embeddedProviders();
  const base = {
    ticker: "AAPL",
    multiplier: 1,
    timespan: "day" as const,
    from: "2017-01-03",
    to: "2018-01-03",
    adjusted: true,
    sort: "asc" as const,
    limit: 5000,
  };

  it("serves real AAPL bars for the default window, valid against the contract", async () => {
    const res = await getAggregates(base, { providers });
    expect(aggregatesResponse.parse(res)).toBeTruthy();
    // 251 sessions in 2017 plus 2018-01-02 and 2018-01-03.
    expect(res.data.count).toBe(253);
    // 2017-01-03 AAPL: close 116.150002 in the 2018 file (split-adjusted for 2014 only); /4 for the 2020 split.
    expect(res.data.bars[0]).toMatchObject({ timestamp: "2017-01-03T05:00:00.000Z", vwap: null, trade_count: null, volume: 28781900 * 4 });
    expect(res.data.bars[0]!.close).toBeCloseTo(116.150002 / 4, 6);
    const raw = await getAggregates({ ...base, adjusted: false }, { providers });
    expect(raw.data.bars[0]!.close).toBeCloseTo(116.150002, 6);
    expect(raw.data.adjusted).toBe(false);
  });

  it("undoes the 2014 7:1 split when adjusted=false (as traded)", async () => {
    const raw = await getAggregates({ ...base, from: "2014-06-06", to: "2014-06-09", adjusted: false }, { providers });
    // Last pre-split close about $645.57; first post-split close about $93.70.
    expect(raw.data.bars.map((b) => Math.round(b.close))).toEqual([646, 94]);
  });

  it("serves the S&P 500 index as SPX", async () => {
    const res = await getAggregates({ ...base, ticker: "SPX", from: "2008-01-01", to: "2008-12-31", timespan: "month" }, { providers });
    expect(res.data.count).toBe(12);
  });

  it("answers like a vendor for what it does not hold", async () => {
    await expect(getAggregates({ ...base, ticker: "ZZZZ" }, { providers })).rejects.toMatchObject({ code: "unknown_ticker", status: 404 });
    await expect(getAggregates({ ...base, timespan: "minute" }, { providers })).rejects.toMatchObject({ code: "not_included", status: 403 });
    await expect(getAggregates({ ...base, from: "2021-01-04", to: "2021-02-01" }, { providers })).rejects.toMatchObject({
      code: "not_included",
      reason: "timeframe_not_included",
    });
    const weekend = await getAggregates({ ...base, from: "2017-01-07", to: "2017-01-08" }, { providers });
    expect(weekend.data).toEqual({ bars: [], count: 0, adjusted: true });
  });
});

describe("day windows over long spans", () => {
  it("keep calendar dates exact across centuries and leap days (integer date arithmetic)", () => {
    const days: { date: string; open: number; high: number; low: number; close: number; volume: number }[] = [];
    for (let t = Date.UTC(1899, 11, 25); t <= Date.UTC(2101, 0, 5); t += 86_400_000 * 37) {
      const date = new Date(t).toISOString().slice(0, 10);
      days.push(d(date, 1));
    }
    const bars = bucketDailyBars(days, { ...q, from: "1899-12-25", to: "2101-01-05", multiplier: 37 });
    expect(bars.map((b) => b.timestamp!.slice(0, 10))).toEqual(days.map((x) => x.date));
  });
});
