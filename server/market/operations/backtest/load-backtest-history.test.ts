import { describe, expect, it } from "vitest";
import { AppError } from "../../../errors";
import { embeddedProviders } from "../../providers/embedded";
import type { AggregatesProvider, MarketProviders } from "../../providers/types";
import { rsiWilder } from "./indicators";
import { LIVE_HISTORY_YEARS, loadBacktestHistory, windowStart } from "./load-backtest-history";

const SMA_50_200 = { spec: { kind: "sma_cross", fast: 50, slow: 200 } as const, label: "SMA crossover 50/200" };
const RSI_14 = { spec: { kind: "rsi_reversion", period: 14, lower: 30, upper: 70 } as const, label: "RSI(14) reversion 30/70" };
const now = new Date("2026-01-01T00:00:00Z");

describe("windowStart: calendar years back from the last bar", () => {
  it("keeps month and day for whole years, 29 February becoming 28 February", () => {
    expect(windowStart("2018-05-11", 3)).toBe("2015-05-11");
    expect(windowStart("2018-05-11", 1)).toBe("2017-05-11");
    expect(windowStart("2020-02-29", 1)).toBe("2019-02-28");
    expect(windowStart("2020-02-29", 4)).toBe("2016-02-29");
  });

  it("adds a fraction as that share of 365.25 days, rounded to whole days", () => {
    // 0.5 x 365.25 = 182.625 -> 183 days before 2017-05-11.
    expect(windowStart("2018-05-11", 1.5)).toBe("2016-11-09");
    // 0.25 x 365.25 = 91.3125 -> 91 days before 2018-05-11.
    expect(windowStart("2018-05-11", 0.25)).toBe("2018-02-09");
  });
});

describe("loadBacktestHistory (embedded AAPL: 2013-05-13..2018-05-11, 1,260 sessions)", () => {
  const providers = embeddedProviders();

  it("states the window, and warms up on every bar before it whatever `years` is", async () => {
    const one = await loadBacktestHistory("AAPL", { years: 1, ...SMA_50_200 }, providers, now);
    const three = await loadBacktestHistory("AAPL", { years: 3, ...SMA_50_200 }, providers, now);
    expect(one.window).toEqual({ years: 1, from: "2017-05-11", to: "2018-05-11" });
    expect(three.window).toEqual({ years: 3, from: "2015-05-11", to: "2018-05-11" });
    // Counted in the file: 1,007 sessions before 2017-05-11, 502 before 2015-05-11.
    expect(one.warmup).toEqual({ bars: 1007, from: "2013-05-13", needed: 200, sufficient: true, note: null });
    expect(three.warmup).toEqual({ bars: 502, from: "2013-05-13", needed: 200, sufficient: true, note: null });
    // The same history, so an RSI (recursive, start-dependent) or SMA value on a day is the same for both.
    expect(one.bars).toEqual(three.bars);
    expect(one.bars).toHaveLength(1260);
    const day = one.bars.findIndex((b) => b.date === "2017-06-01");
    expect(
      rsiWilder(
        one.bars.map((b) => b.close),
        14,
      )[day],
    ).toBe(
      rsiWilder(
        three.bars.map((b) => b.close),
        14,
      )[day],
    );
  });

  it("says so when the history before the window is too short", async () => {
    const five = await loadBacktestHistory("AAPL", { years: 5, ...SMA_50_200 }, providers, now);
    expect(five.window).toEqual({ years: 5, from: "2013-05-11", to: "2018-05-11" });
    expect(five.warmup).toMatchObject({ bars: 0, from: null, needed: 200, sufficient: false });
    // The 201st bar of the file (index 200) is 2014-02-27: the first bar that, like the bar before it, has a 200-day SMA.
    expect(five.warmup.note).toBe(
      "Only 0 daily bars of history precede the window (AAPL's history starts 2013-05-13); SMA crossover 50/200 needs 200 before a signal can be read on the window's first close, so the first signal can come on the close of 2014-02-27.",
    );
    const rsi = await loadBacktestHistory("AAPL", { years: 5, ...RSI_14 }, providers, now);
    expect(rsi.warmup).toMatchObject({ bars: 0, needed: 14, sufficient: false });
  });
});

describe("loadBacktestHistory with an open-ended (live) vendor", () => {
  const aapl = embeddedProviders().aggregates;
  // The embedded AAPL bars behind a provider that, like a live vendor, does not state its coverage.
  const vendor = (refuseBefore?: string) => {
    const calls: { from: string; to: string }[] = [];
    const aggregates: AggregatesProvider = {
      name: "vendor",
      coverage: () => null,
      getAggregates: aapl.getAggregates,
      async getDailyBars(ticker, from, to) {
        calls.push({ from, to });
        if (refuseBefore && from < refuseBefore)
          throw new AppError("not_included", { reason: "plan_not_included", detail: "Your plan doesn't include this data timeframe." });
        return aapl.getDailyBars(ticker, from, to);
      },
    };
    return { calls, providers: { ...embeddedProviders(), kind: "live", aggregates } as MarketProviders };
  };
  // A vendor's history ends today (New York): the clock is set to the last embedded day.
  const lastDay = new Date("2018-05-11T21:00:00Z");

  it("asks for the same LIVE_HISTORY_YEARS calendar years whatever `years` is", async () => {
    const v = vendor();
    await loadBacktestHistory("AAPL", { years: 1, ...RSI_14 }, v.providers, lastDay);
    await loadBacktestHistory("AAPL", { years: 4, ...RSI_14 }, v.providers, lastDay);
    expect(LIVE_HISTORY_YEARS).toBe(10);
    expect(v.calls).toEqual([
      { from: "2008-05-11", to: "2018-05-11" },
      { from: "2008-05-11", to: "2018-05-11" },
    ]);
  });

  it("falls back to the window plus the strategy's warm-up when the vendor's plan refuses that much, and says so", async () => {
    const v = vendor("2015-01-01");
    const h = await loadBacktestHistory("AAPL", { years: 2, ...RSI_14 }, v.providers, lastDay);
    // Window from 2016-05-11; RSI(14) needs 14 bars: 14 x 1.5 + 10 = 31 calendar days before it, 2016-04-10.
    expect(v.calls).toEqual([
      { from: "2008-05-11", to: "2018-05-11" },
      { from: "2016-04-10", to: "2018-05-11" },
    ]);
    expect(h.window).toEqual({ years: 2, from: "2016-05-11", to: "2018-05-11" });
    expect(h.warmup).toMatchObject({ from: "2016-04-11", sufficient: true });
    expect(h.warmup.bars).toBeGreaterThanOrEqual(14);
    expect(h.warmup.note).toMatch(/^The data vendor's plan refused 10 years of history/);
  });

  it("passes any other vendor error through", async () => {
    const v = vendor();
    const failing = {
      ...v.providers,
      aggregates: { ...v.providers.aggregates, getDailyBars: async () => Promise.reject(new AppError("upstream_unavailable")) },
    };
    await expect(loadBacktestHistory("AAPL", { years: 1, ...RSI_14 }, failing, lastDay)).rejects.toMatchObject({ code: "upstream_unavailable" });
  });
});
