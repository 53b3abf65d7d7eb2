// GET /api/v1/aggregates/{ticker}: OHLCV bars in Polygon's semantics, from the shared bars source (the embedded files,
// or Massive live). Archived daily: the last two weeks of bars of each archived ticker.
import { addDays } from "../../lib/dates";
import { MARKET_SOURCE } from "../../lib/envelope";
import { embeddedSeriesGroups, embeddedSeriesInfo } from "../../providers/embedded-daily-series";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { getAggregates } from "./get-aggregates";

/** Demo tickers whose daily bars are archived. */
export const ARCHIVED_TICKERS = ["AAPL", "SPX"];
const AGGREGATES_DAYS = 14;

export const aggregates = defineOperation({
  contract,
  service: "stock-quotes",
  meter: { key: "aggregates", title: "Aggregates", priceMicros: 20_000n },
  source: MARKET_SOURCE,
  goal: "daily AAPL stock price bars for 2017",
  example: () => ({ path: { ticker: "AAPL" }, query: { from: "2017-01-03", to: "2017-12-29" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live bars from Massive (formerly Polygon.io): US-listed stocks and ETFs, and the S&P 500 index as SPX, minute to year buckets, " +
          "as far back as this storefront's data plan reaches; what the plan does not include answers 403 not_included, an unknown ticker 404 unknown_ticker.",
      };
    const series = embeddedSeriesInfo().filter((s) => s.coverage);
    const groups = embeddedSeriesGroups().map((g) => `${g.tickers.join(", ")} ${g.first}..${g.last} (${g.label})`);
    return {
      summary:
        `Offline data: daily bars (day, week, month, quarter and year buckets) of ${groups.join("; ")}. ` +
        "Another ticker answers 404 unknown_ticker; minute and hour bars, and a window outside those days, 403 not_included; " +
        "adjusted=false on a dividend-adjusted file, 403 not_included (reason unadjusted_not_included). The answer's `series` states the file's basis.",
      entities: series.map((s) => ({ name: s.ticker, first_date: s.coverage!.first, last_date: s.coverage!.last })),
    };
  },
  run: ({ path, query }, ctx) => getAggregates({ ticker: path.ticker, ...query }, { providers: ctx.providers, now: ctx.now }),
  feed: {
    description: `Daily bars of the last ${AGGREGATES_DAYS} calendar days the provider holds, as GET /api/v1/aggregates/{ticker} returned them`,
    entities: ARCHIVED_TICKERS,
    async fetch(ticker, { providers, now, observedDate }) {
      const cov = providers.aggregates.coverage(ticker);
      const to = cov && cov.last < observedDate ? cov.last : observedDate;
      return getAggregates(
        { ticker, multiplier: 1, timespan: "day", from: addDays(to, -AGGREGATES_DAYS), to, adjusted: true, sort: "asc", limit: 5000 },
        { providers, now },
      );
    },
    summarize(p) {
      const bars = (p as { data: { bars: { timestamp: string | null; close: number }[] } }).data.bars;
      const last = bars[bars.length - 1];
      return { bars: bars.length, first_bar: bars[0]?.timestamp ?? null, last_bar: last?.timestamp ?? null, last_close: last?.close ?? null };
    },
  },
});
