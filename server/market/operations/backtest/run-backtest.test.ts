import { describe, expect, it } from "vitest";
import type { DailyBar } from "../../providers/types";
import { computeStats, runBacktest, summariseTrades, warmupBarsNeeded } from "./run-backtest";

const bar = (i: number, open: number, close: number): DailyBar => ({
  date: `2020-01-${String(i + 1).padStart(2, "0")}`,
  open,
  high: Math.max(open, close),
  low: Math.min(open, close),
  close,
  volume: 1000,
});

// Worked by hand. fast=1/slow=2 SMA: fast > slow iff today's close is above yesterday's, so a cross above is an up
// close after a close that was not up, and a cross below a down close after one that was not down.
//   i      0   1   2   3   4   5   6   7     8   9   10
//   open  10  10  12  12  10  10  13  14  12.5  12   14
//   close 10  11  12  11  10  12  14  13    12  13   15
// i1: slow has no value the day before, so no signal. i2: up after up, fast was already above: no crossover.
// i5: up after down: cross above, buy at i6's open 13: 7 shares, 9 cash. i7: down after up: cross below, sell at
// i8's open 12.5. i9: up after down: buy at i10's open 14 with 96.5: 6 shares, 12.5 cash; still open at the end.
const BARS = [
  bar(0, 10, 10),
  bar(1, 10, 11),
  bar(2, 12, 12),
  bar(3, 12, 11),
  bar(4, 10, 10),
  bar(5, 10, 12),
  bar(6, 13, 14),
  bar(7, 14, 13),
  bar(8, 12.5, 12),
  bar(9, 12, 13),
  bar(10, 14, 15),
];
const SMA_1_2 = { kind: "sma_cross", fast: 1, slow: 2 } as const;

describe("runBacktest sma_cross (hand-checked)", () => {
  const r = runBacktest(BARS, "2020-01-01", SMA_1_2, 100);

  it("enters on a cross above and exits on a cross below: signal on the close, fill at the next open, whole shares, all in", () => {
    expect(r.strategyEquity).toEqual([100, 100, 100, 100, 100, 100, 107, 100, 96.5, 96.5, 102.5]);
    expect(r.trades).toEqual([
      {
        entry_date: "2020-01-07",
        entry_price: 13,
        exit_date: "2020-01-09",
        exit_price: 12.5,
        shares: 7,
        pnl: -3.5,
        return_percent: -3.8462,
        bars_held: 2,
        status: "closed",
      },
      { entry_date: "2020-01-11", entry_price: 14, exit_date: null, exit_price: null, shares: 6, pnl: 6, return_percent: 7.1429, bars_held: 0, status: "open" },
    ]);
  });

  it("never enters merely because fast is above slow when the window opens", () => {
    // The window opens on i2, where fast (12) is above slow (11.5) and was above the day before too: no trade until
    // the crossover on i5's close (filled at i6). Entering on fast > slow alone would have bought at i3's open.
    const w = runBacktest(BARS, "2020-01-03", SMA_1_2, 100);
    expect(w.dates[0]).toBe("2020-01-03");
    expect(w.trades.map((t) => t.entry_date)).toEqual(["2020-01-07", "2020-01-11"]);
  });

  it("a close level with the other SMA is 'at or below': the next close above it is a crossover", () => {
    // Closes 10, 10, 11: on i1 fast (10) equals slow (10); on i2 fast 11 > slow 10.5: buy at i3's open.
    const flat = [bar(0, 10, 10), bar(1, 10, 10), bar(2, 10, 11), bar(3, 11, 11)];
    expect(runBacktest(flat, "2020-01-01", SMA_1_2, 100).trades.map((t) => t.entry_date)).toEqual(["2020-01-04"]);
  });

  it("holds while fast equals slow: only a close below is a cross below", () => {
    // Closes 10, 9, 10, 10, 11, 10: i2 crosses above (buy at i3's open 10); on i3 fast equals slow (10 = 10): no
    // exit (the rule "fast not above slow" would sell at i4's open). i5 crosses below but is the last bar, with no
    // next open to sell at, so the trade is still open at the end.
    const level = [bar(0, 10, 10), bar(1, 10, 9), bar(2, 9, 10), bar(3, 10, 10), bar(4, 10, 11), bar(5, 11, 10)];
    expect(runBacktest(level, "2020-01-01", SMA_1_2, 100).trades).toMatchObject([{ entry_date: "2020-01-04", exit_date: null, status: "open" }]);
  });

  it("computes strategy and buy-and-hold statistics", () => {
    expect(r.strategy.total_return_percent).toBe(2.5);
    // Peak 107 (i6), trough 96.5 (i8): 96.5 / 107 - 1.
    expect(r.strategy.max_drawdown_percent).toBe(-9.8131);
    // Holding shares at the close of i6, i7 and i10: 3 of 11 bars.
    expect(r.strategy.exposure_percent).toBe(27.2727);
    expect(r.strategy.final_equity).toBe(102.5);
    // Buy and hold: 10 shares at the first open (10).
    expect(r.buyHoldEquity).toEqual([100, 110, 120, 110, 100, 120, 140, 130, 120, 130, 150]);
    expect(r.buyHold.total_return_percent).toBe(50);
    expect(r.buyHold.max_drawdown_percent).toBe(-16.6667);
    expect(r.buyHold.exposure_percent).toBe(100);
  });

  it("summarises closed trades only, listing the open one", () => {
    const t = summariseTrades(r.trades);
    expect(t).toMatchObject({ count: 1, win_rate_percent: 0, avg_return_percent: -3.8462, best_percent: -3.8462, worst_percent: -3.8462 });
    expect(t.list).toHaveLength(2);
  });

  it("has no lookahead: changing the last bar changes nothing before it", () => {
    const changed = runBacktest([...BARS.slice(0, 10), bar(10, 14, 1)], "2020-01-01", SMA_1_2, 100);
    expect(changed.strategyEquity.slice(0, 10)).toEqual(r.strategyEquity.slice(0, 10));
  });

  it("reads the crossover on the window's first close from the bar before it (warm-up)", () => {
    // The window opens on i5: its close crosses above (i4 was down), which needs i4's SMAs: buy at i6's open.
    const w = runBacktest(BARS, "2020-01-06", SMA_1_2, 100);
    expect(w.dates[0]).toBe("2020-01-06");
    expect(w.trades[0]).toMatchObject({ entry_date: "2020-01-07", entry_price: 13, shares: 7 });
  });
});

describe("warmupBarsNeeded", () => {
  it("is max(fast, slow) for a crossover (both SMAs on the bar before) and the period for RSI", () => {
    expect(warmupBarsNeeded({ kind: "sma_cross", fast: 50, slow: 200 })).toBe(200);
    expect(warmupBarsNeeded({ kind: "rsi_reversion", period: 14, lower: 30, upper: 70 })).toBe(14);
    // Checked against the engine: with exactly `needed` bars before the window, the first window close can signal.
    const w = runBacktest(BARS, "2020-01-06", { kind: "sma_cross", fast: 1, slow: 5 }, 100);
    expect(warmupBarsNeeded({ kind: "sma_cross", fast: 1, slow: 5 })).toBe(5);
    // i5: close 12 > SMA5 of i1..i5 (11 + 12 + 11 + 10 + 12) / 5 = 11.2, and i4: close 10 <= SMA5 of i0..i4 = 10.8.
    expect(w.trades[0]).toMatchObject({ entry_date: "2020-01-07" });
  });
});

describe("runBacktest rsi_reversion (hand-checked)", () => {
  it("buys when RSI closes below lower and sells when it closes above upper", () => {
    // RSI(2): idx2 = 0 (< 30, buy idx3 open 8.5), idx3 = 50, idx4 = 75 (> 70, sell idx5 open 10.5).
    const bars = [bar(0, 10, 10), bar(1, 10, 9), bar(2, 9, 8), bar(3, 8.5, 9), bar(4, 9, 10), bar(5, 10.5, 11)];
    const r = runBacktest(bars, "2020-01-01", { kind: "rsi_reversion", period: 2, lower: 30, upper: 70 }, 100);
    expect(r.trades).toEqual([
      {
        entry_date: "2020-01-04",
        entry_price: 8.5,
        exit_date: "2020-01-06",
        exit_price: 10.5,
        shares: 11,
        pnl: 22,
        return_percent: 23.5294,
        bars_held: 2,
        status: "closed",
      },
    ]);
    expect(r.strategy.final_equity).toBe(122);
  });

  it("never buys when capital cannot pay for one share", () => {
    const r = runBacktest(BARS, "2020-01-01", SMA_1_2, 5);
    expect(r.trades).toEqual([]);
    expect(r.strategy.final_equity).toBe(5);
  });
});

describe("computeStats", () => {
  it("annualises: a flat curve has zero volatility and Sharpe; CAGR over one year equals the return", () => {
    expect(computeStats(["2020-01-01", "2020-06-01"], [100, 100], 0, 100)).toMatchObject({ volatility_percent: 0, sharpe: 0, total_return_percent: 0 });
    const s = computeStats(["2019-01-01", "2020-01-01T06:00:00Z"], [100, 110], 2, 100);
    expect(s.cagr_percent).toBeCloseTo(10, 1);
  });
});
