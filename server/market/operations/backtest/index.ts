// GET /api/v1/backtest/{ticker}: an SMA crossover or RSI reversion backtest over daily history from the shared bars
// source, with a PNG report hosted as an expiring artifact (server/market/artifacts). Not archived.
import { MARKET_SOURCE } from "../../lib/envelope";
import { embeddedSeriesGroups, embeddedSeriesInfo } from "../../providers/embedded-daily-series";
import { shelfSeriesCoverage } from "./backtest-series";
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
    const shelf = shelfSeriesCoverage();
    const shelfText =
      `Shelf series by name (read from the shelf's files in either mode; close-only ones fill at the next close): ` +
      `${shelf.map((s) => `${s.id} ${s.first}..${s.last}`).join(", ")}.`;
    if (kind === "live")
      return {
        summary:
          "Live daily history from Massive (formerly Polygon.io) for US-listed stocks and ETFs, up to the last 10 years as this storefront's data plan allows; a window of up to 5 years. " +
          shelfText,
        entities: shelf.map((s) => ({ name: s.id, first_date: s.first, last_date: s.last })),
      };
    const series = embeddedSeriesInfo().filter((s) => s.coverage);
    const groups = embeddedSeriesGroups().map((g) => `${g.tickers.join(", ")} ${g.first}..${g.last} (${g.label.split(";")[0]})`);
    return {
      summary:
        `Offline data: daily history of ${groups.join("; ")}. ${shelfText} ` +
        "`years` counts back from the last day held. Another name answers 404 unknown_ticker.",
      entities: [
        ...series.map((s) => ({ name: s.ticker, first_date: s.coverage!.first, last_date: s.coverage!.last })),
        ...shelf.map((s) => ({ name: s.id, first_date: s.first, last_date: s.last })),
      ],
    };
  },
  run: ({ path, query }, ctx) => createBacktest(path.ticker, query, { origin: ctx.origin, providers: ctx.providers, now: ctx.now }),
});
