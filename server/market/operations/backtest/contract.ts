// The backtest operation's contract (SERVICE.md parts 2 and 4).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, queryInt, queryNumber, ticker } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const backtestPath = z.object({
  ticker: ticker.meta({
    description:
      "A US-listed ticker (AAPL), or a daily series of the shelf by the name the coverage lists (BTC-USD, WTI-OIL, UST-10Y, ...), with the days each holds.",
  }),
});
export const backtestQuery = z.object({
  strategy: z.enum(["sma_cross", "rsi_reversion"]).default("sma_cross"),
  fast: queryInt(1, 200).default(50).meta({ description: "Fast SMA length (sma_cross)." }),
  slow: queryInt(1, 400).default(200).meta({ description: "Slow SMA length (sma_cross)." }),
  period: queryInt(1, 100).default(14).meta({ description: "RSI period (rsi_reversion, Wilder smoothing)." }),
  lower: queryNumber({ min: 1, max: 99 }).default(30).meta({ description: "Buy when RSI closes below (rsi_reversion)." }),
  upper: queryNumber({ min: 1, max: 99 }).default(70).meta({ description: "Sell when RSI closes above (rsi_reversion)." }),
  years: queryNumber({ gt: 0, max: 5 }).default(3).meta({
    description:
      "Calendar years back from the last bar: the window holds the bars dated on or after the same month and day that many years earlier (a fraction adds that share of 365.25 days, rounded to whole days). data.window states the window used.",
  }),
  capital: queryNumber({ gt: 0, max: 1_000_000_000 }).default(10000).meta({ description: "Initial capital in USD." }),
});

const statMap = z.record(z.string(), z.number());
export const backtestResponse = z.object({
  ...envelope,
  ticker: z.string(),
  artifact: z.object({
    id: z.string(),
    url: z.string(),
    format: z.literal("png"),
    expires_at: z.string(),
  }),
  strategy: z.object({ kind: z.string(), label: z.string(), params: z.record(z.string(), z.number()) }),
  data: z.object({
    bars: z.number(),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    initial_capital: z.number(),
    strategy: statMap,
    buy_hold: statMap,
    trades: z.object({
      count: z.number(),
      win_rate_percent: z.number(),
      avg_return_percent: z.number(),
      best_percent: z.number(),
      worst_percent: z.number(),
      list: z.array(z.record(z.string(), z.union([z.number(), z.string(), z.null()]))),
    }),
    window: z
      .object({ years: z.number(), from: z.string(), to: z.string() })
      .meta({ description: "The window traded: `years` back from the last bar `to`; `from` is the first calendar day in it (YYYY-MM-DD)." }),
    warmup: z
      .object({
        bars: z.number().meta({ description: "Daily bars before the window the indicators ran over." }),
        from: z.string().nullable().meta({ description: "Date of the first of those bars; null when there are none." }),
        needed: z.number().meta({ description: "Bars the strategy needs before the window to read a signal on its first close." }),
        sufficient: z.boolean(),
        note: z.string().nullable().meta({ description: "Why the warm-up is short (or limited by the data vendor), and what it means; null when it is not." }),
      })
      .meta({ description: "Indicators run over all the history before the window, so their values do not depend on `years`." }),
    series: z
      .object({
        id: z.string(),
        name: z.string(),
        kind: z.string().meta({ description: "stock, etf, index, us_listed (live), crypto, commodity, fx or rate." }),
        source: z.string().meta({ description: "Where the history came from." }),
        units: z.string(),
        prices: z.string().meta({ description: "What the prices are: the adjustment basis, or what one value a day means." }),
        fills: z
          .enum(["next_open", "next_close"])
          .meta({ description: "How signals are filled: at the next open, or the next close for a series with closes only." }),
        units_traded: z.enum(["whole", "fractional"]).meta({ description: "whole shares for stocks; fractional units for coins and shelf series." }),
        bars_per_year: z.number().meta({ description: "Bars a year used to annualise volatility and Sharpe (252 trading days; 365 for every-day series)." }),
        note: z.string().nullable(),
      })
      .meta({ description: "The series the backtest ran over, its source, basis and how trades were filled." }),
  }),
  disclaimer: z.string(),
});

export const contract = {
  key: "backtest",
  method: "GET",
  path: "/api/v1/backtest/{ticker}",
  upstreamPath: "/backtest/{ticker}",
  summary: "Strategy backtest with a PNG equity-curve report",
  description:
    "Backtests an SMA crossover or RSI mean-reversion strategy over daily history with no lookahead (signals on a bar's " +
    "close, fills at the next open, long only, all-in whole shares), against buy-and-hold. Statistics plus a hosted PNG chart that expires. " +
    "sma_cross buys only on a crossover: the fast SMA closes above the slow one after closing at or below it the day before " +
    "(fast already above slow when the window opens is not a signal); it sells when fast crosses below slow the same way. " +
    "rsi_reversion buys when RSI (Wilder) closes below `lower` and sells when it closes above `upper`. " +
    "Indicators run over all the history before the window, so their values on a day do not depend on `years`; " +
    "data.warmup says when that history is too short. `years` counts calendar years back from the last bar; data.window states the window used. " +
    "Besides stocks and ETFs it runs over every daily series the shelf holds, by the name its coverage lists: crypto pairs (fractional coins, " +
    "fills at the next open) and close-only series (spot prices, reference rates, yields), whose trades fill at the next close; data.series says which.",
  pathParams: backtestPath,
  query: backtestQuery,
  response: backtestResponse,
  keywords: ["strategy", "sma", "rsi", "research", "chart", "performance", "sharpe", "drawdown"],
} satisfies OperationContract;
