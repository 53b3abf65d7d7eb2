// GET /api/v1/backtest/{ticker}: an SMA crossover or RSI reversion backtest over daily history from the shared bars
// source, with a PNG report hosted as an expiring artifact (server/market/artifacts). Not archived.
import { MARKET_SOURCE } from "../../lib/envelope";
import { embeddedSeriesInfo } from "../../providers/embedded-daily-series";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { createBacktest } from "./create-backtest";

export const backtest = defineOperation({
  contract,
  service: "screeners-scores-research",
  meter: { key: "backtest", title: "Backtest", priceMicros: 500_000n },
  source: MARKET_SOURCE,
  goal: "backtest an SMA crossover or RSI trading strategy on AAPL with a chart",
  example: () => ({ path: { ticker: "AAPL" }, query: { strategy: "sma_cross", fast: "20", slow: "50", years: "2" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live daily history from Massive (formerly Polygon.io) for US-listed stocks and ETFs, up to the last 10 years as this storefront's data plan allows; a window of up to 5 years.",
      };
    const series = embeddedSeriesInfo().filter((s) => s.coverage);
    return {
      summary:
        `Offline data: daily history of ${series.map((s) => `${s.ticker} ${s.coverage!.first}..${s.coverage!.last}`).join(" and ")}; ` +
        "`years` counts back from the last of those days. Another ticker answers 404 unknown_ticker.",
      entities: series.map((s) => ({ name: s.ticker, first_date: s.coverage!.first, last_date: s.coverage!.last })),
    };
  },
  run: ({ path, query }, ctx) => createBacktest(path.ticker, query, { origin: ctx.origin, providers: ctx.providers, now: ctx.now }),
});
