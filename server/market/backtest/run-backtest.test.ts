import { describe, expect, it } from "vitest";
import type { DailyBar } from "../providers/types";
import { computeStats, runBacktest, summariseTrades } from "./run-backtest";

const bar = (i: number, open: number, close: number): DailyBar => ({
  date: `2020-01-${String(i + 1).padStart(2, "0")}`,
  open,
  high: Math.max(open, close),
  low: Math.min(open, close),
  close,
  volume: 1000,
});

// Worked by hand. fast=1/slow=2 SMA: long iff today's close > yesterday's close.
const BARS = [bar(0, 10, 10), bar(1, 10, 11), bar(2, 12, 12), bar(3, 12, 11), bar(4, 10, 10), bar(5, 10, 12), bar(6, 13, 14)];

describe("runBacktest sma_cross (hand-checked)", () => {
  const r = runBacktest(BARS, "2020-01-01", { kind: "sma_cross", fast: 1, slow: 2 }, 100);

  it("signals on the close and fills at the next open, whole shares, all in", () => {
    // d2 close up -> buy d3 open 12: 8 shares, 4 cash. d4 close down -> sell d5 open 10. d6 up -> buy d7 open 13: 6 shares.
    expect(r.strategyEquity).toEqual([100, 100, 100, 92, 84, 84, 90]);
    expect(r.trades).toEqual([
      {
        entry_date: "2020-01-03",
        entry_price: 12,
        exit_date: "2020-01-05",
        exit_price: 10,
        shares: 8,
        pnl: -16,
        return_percent: -16.6667,
        bars_held: 2,
        status: "closed",
      },
      { entry_date: "2020-01-07", entry_price: 13, exit_date: null, exit_price: null, shares: 6, pnl: 6, return_percent: 7.6923, bars_held: 0, status: "open" },
    ]);
  });

  it("computes strategy and buy-and-hold statistics", () => {
    expect(r.strategy.total_return_percent).toBe(-10);
    expect(r.strategy.max_drawdown_percent).toBe(-16);
    expect(r.strategy.exposure_percent).toBe(42.8571);
    expect(r.strategy.final_equity).toBe(90);
    // Buy and hold: 10 shares at the first open (10).
    expect(r.buyHoldEquity).toEqual([100, 110, 120, 110, 100, 120, 140]);
    expect(r.buyHold.total_return_percent).toBe(40);
    expect(r.buyHold.max_drawdown_percent).toBe(-16.6667);
    expect(r.buyHold.exposure_percent).toBe(100);
  });

  it("summarises closed trades only, listing the open one", () => {
    const t = summariseTrades(r.trades);
    expect(t).toMatchObject({ count: 1, win_rate_percent: 0, avg_return_percent: -16.6667, best_percent: -16.6667, worst_percent: -16.6667 });
    expect(t.list).toHaveLength(2);
  });

  it("has no lookahead: changing the last bar changes nothing before it", () => {
    const changed = runBacktest([...BARS.slice(0, 6), bar(6, 13, 1)], "2020-01-01", { kind: "sma_cross", fast: 1, slow: 2 }, 100);
    expect(changed.strategyEquity.slice(0, 6)).toEqual(r.strategyEquity.slice(0, 6));
  });

  it("trades only inside the window but uses earlier bars to warm up", () => {
    const w = runBacktest(BARS, "2020-01-04", { kind: "sma_cross", fast: 1, slow: 2 }, 100);
    expect(w.dates[0]).toBe("2020-01-04");
    // d4 close is down: no entry until d6's up close, filled at d7's open.
    expect(w.trades.map((t) => t.entry_date)).toEqual(["2020-01-07"]);
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
    const r = runBacktest(BARS, "2020-01-01", { kind: "sma_cross", fast: 1, slow: 2 }, 5);
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
