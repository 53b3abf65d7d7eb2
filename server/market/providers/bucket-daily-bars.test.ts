import { describe, expect, it } from "vitest";
import { aggregatesResponse } from "../operations/aggregates/contract";
import { getAggregates } from "../operations/aggregates/get-aggregates";
import { bucketDailyBars } from "./bucket-daily-bars";
import { embeddedProviders } from "./embedded";

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
  });

  it("drops the bucket the limit cut short, and only that one", () => {
    // Weeks: 12-31..01-06 holds 01-04, 01-05; 01-07..01-13 holds 01-08, 01-09, 01-12; 01-14..01-20 holds 01-16.
    const week = { ...q, timespan: "week" as const };
    // limit 3 reads 01-04, 01-05, 01-08: the second week is cut (01-09 is unread and in it), so only the first is returned.
    expect(bucketDailyBars(DAYS, { ...week, limit: 3 }).map((b) => b.timestamp)).toEqual(["2023-12-31T05:00:00.000Z"]);
    // limit 5 ends exactly at the second week's last bar: both weeks are whole.
    expect(bucketDailyBars(DAYS, { ...week, limit: 5 }).map((b) => b.volume)).toEqual([200, 300]);
    // desc reads the newest bars: 01-16, 01-12, 01-09 cuts the second week, so only the third is returned.
    expect(bucketDailyBars(DAYS, { ...week, limit: 3, sort: "desc" }).map((b) => b.timestamp)).toEqual(["2024-01-14T05:00:00.000Z"]);
    // One month holds all six bars: three read leave it incomplete, so nothing is returned.
    expect(bucketDailyBars(DAYS, { ...q, timespan: "month", limit: 3 })).toEqual([]);
    expect(bucketDailyBars(DAYS, { ...q, timespan: "month", limit: 6 })).toMatchObject([{ open: 9, close: 15, volume: 600 }]);
  });

  it("quarter and year buckets are whole calendar periods; summer bars are UTC-4", () => {
    const s = [d("2024-07-01", 1), d("2024-09-30", 2), d("2024-10-01", 3), d("2024-12-31", 4)];
    const qs = bucketDailyBars(s, { ...q, from: "2024-08-15", to: "2024-10-01", timespan: "quarter" });
    expect(qs.map((b) => b.timestamp)).toEqual(["2024-07-01T04:00:00.000Z", "2024-10-01T04:00:00.000Z"]);
    // from 08-15 is widened to the quarter's first day and to 10-01 to the quarter's last: 07-01 and 12-31 are in.
    expect(qs.map((b) => [b.open, b.close])).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(bucketDailyBars(s, { ...q, from: "2024-12-31", to: "2024-12-31", timespan: "year" })).toMatchObject([{ open: 0, close: 4, volume: 400 }]);
  });

  it("multiplier > 1 counts whole buckets from the start of the period holding `from`", () => {
    // Two-week buckets asked from Thursday 01-04: the anchor is Sunday 2023-12-31, so 12-31..01-13 and 01-14..01-27.
    const two = bucketDailyBars(DAYS, { ...q, from: "2024-01-04", to: "2024-01-15", timespan: "week", multiplier: 2 });
    expect(two.map((b) => [b.timestamp, b.volume])).toEqual([
      ["2023-12-31T05:00:00.000Z", 500],
      // `to` 01-15 falls in the second bucket, which runs to its end and so holds 01-16.
      ["2024-01-14T05:00:00.000Z", 100],
    ]);
    // Two-month buckets asked from 2024-04-15: the anchor is 04-01, so April-May and June-July (not the calendar's
    // March-April); `to` in June reaches the end of July, and 03-28 and 08-01 stay out.
    const s = [d("2024-03-28", 1), d("2024-04-01", 2), d("2024-05-31", 3), d("2024-06-03", 4), d("2024-07-31", 5), d("2024-08-01", 6)];
    const months = bucketDailyBars(s, { ...q, from: "2024-04-15", to: "2024-06-02", timespan: "month", multiplier: 2 });
    expect(months.map((b) => [b.timestamp, b.open, b.close])).toEqual([
      ["2024-04-01T04:00:00.000Z", 1, 3],
      ["2024-06-01T04:00:00.000Z", 3, 5],
    ]);
    // Two quarters and two years anchor the same way: 2024-04-15 is in Q2, so 2024-04-01..09-30; 2025-01-02 is in
    // 2025, so 2025-2026 (not 2024-2025).
    expect(bucketDailyBars(s, { ...q, from: "2024-04-15", to: "2024-04-15", timespan: "quarter", multiplier: 2 })).toMatchObject([
      { timestamp: "2024-04-01T04:00:00.000Z", open: 1, close: 6 },
    ]);
    const y = [d("2024-12-31", 1), d("2025-01-02", 2), d("2026-12-31", 3), d("2027-01-04", 4)];
    expect(bucketDailyBars(y, { ...q, from: "2025-06-30", to: "2025-06-30", timespan: "year", multiplier: 2 })).toMatchObject([
      { timestamp: "2025-01-01T05:00:00.000Z", open: 1, close: 3 },
    ]);
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
    // The file's 2017-01-03 row (split-adjusted for 2014 only): 115.800003, 116.330002, 114.760002, 116.150002,
    // 28781900. Divided by 4 for the 2020 split at full precision: nothing rounded away (28.95000075 has 8 decimals).
    expect(res.data.bars[0]).toEqual({
      open: 28.95000075,
      high: 29.0825005,
      low: 28.6900005,
      close: 29.0375005,
      volume: 115127600,
      vwap: null,
      trade_count: null,
      timestamp: "2017-01-03T05:00:00.000Z",
    });
    const raw = await getAggregates({ ...base, adjusted: false }, { providers });
    expect(raw.data.bars[0]!.close).toBe(116.150002);
    expect(raw.data.adjusted).toBe(false);
  });

  it("undoes the 2014 7:1 split when adjusted=false (as traded)", async () => {
    const raw = await getAggregates({ ...base, from: "2014-06-06", to: "2014-06-09", adjusted: false }, { providers });
    // Last pre-split close about $645.57; first post-split close about $93.70.
    expect(raw.data.bars.map((b) => Math.round(b.close))).toEqual([646, 94]);
  });

  it("a week asked from a Wednesday is the whole week: the session of Monday 2014-06-02 opens it, stamped Sunday 06-01", async () => {
    // The file's rows 2014-06-02..06-06 (split-adjusted as of 2018): open 90.565712 (06-02), high 93.037140 (06-06),
    // low 88.928574 (06-02), close 92.224289 (06-06), volumes 92337700 + 73177300 + 83870500 + 75951400 + 87484600
    // = 412821500. `to` on Wednesday 06-04 still reaches Friday 06-06.
    const week = { ...base, from: "2014-06-04", to: "2014-06-04", timespan: "week" as const };
    const raw = await getAggregates({ ...week, adjusted: false }, { providers });
    // As traded (before the 7:1 split of 06-09): x7, volume / 7.
    expect(raw.data.bars).toEqual([
      {
        open: 633.959984,
        high: 651.25998,
        low: 622.500018,
        close: 645.570023,
        volume: 58974500,
        vwap: null,
        trade_count: null,
        timestamp: "2014-06-01T04:00:00.000Z",
      },
    ]);
    // Adjusted for the 2020 4:1 split too: / 4 at full precision, volume x 4.
    const adj = await getAggregates(week, { providers });
    expect(adj.data.bars).toEqual([
      {
        open: 22.641428,
        high: 23.259285,
        low: 22.2321435,
        close: 23.05607225,
        volume: 1651286000,
        vwap: null,
        trade_count: null,
        timestamp: "2014-06-01T04:00:00.000Z",
      },
    ]);
  });

  it("months and years are whole too: from/to inside them do not cut them", async () => {
    const monthly = await getAggregates({ ...base, from: "2017-01-15", to: "2017-02-10", timespan: "month" }, { providers });
    const daily = await getAggregates({ ...base, from: "2017-01-01", to: "2017-02-28" }, { providers });
    const jan = daily.data.bars.filter((b) => b.timestamp! < "2017-02");
    expect(monthly.data.bars.map((b) => b.timestamp)).toEqual(["2017-01-01T05:00:00.000Z", "2017-02-01T05:00:00.000Z"]);
    expect(monthly.data.bars[0]).toMatchObject({ open: jan[0]!.open, close: jan[jan.length - 1]!.close, volume: jan.reduce((v, b) => v + b.volume, 0) });
    // A window the bare from..to would miss: Saturday 2018-05-12 is after the last bar, but its week is not.
    const lastWeek = await getAggregates({ ...base, from: "2018-05-12", to: "2018-05-12", timespan: "week" }, { providers });
    expect(lastWeek.data.bars.map((b) => b.timestamp)).toEqual(["2018-05-06T04:00:00.000Z"]);
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
