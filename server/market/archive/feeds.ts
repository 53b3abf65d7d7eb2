// The archived feeds: what the capture job records once per UTC day, each as the exact payload the live
// operation returned that day.
import { getAggregates } from "../aggregates/get-aggregates";
import { getBasis } from "../basis/get-basis";
import { addDays } from "../lib/dates";
import type { MarketProviders } from "../providers/types";
import { getAvgInterestRates } from "../rates/get-avg-interest-rates";

export type FeedContext = { providers: MarketProviders; now: () => Date; observedDate: string };

export type FeedDef = {
  feed: string;
  description: string;
  entities: string[];
  fetch(entity: string, ctx: FeedContext): Promise<unknown>;
  summarize(payload: unknown): Record<string, unknown>;
};

/** Demo tickers whose daily bars are archived. */
export const ARCHIVED_TICKERS = ["AAPL", "SPX"];
const AGGREGATES_DAYS = 14;

export const BUILTIN_FEEDS: FeedDef[] = [
  {
    feed: "aggregates",
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
  {
    feed: "avg_interest_rates",
    description: "US Treasury average interest rates by security type, as GET /api/v1/avg-interest-rates returned them",
    entities: ["us_treasury"],
    fetch: (_e, { providers }) => getAvgInterestRates({ providers }),
    summarize(p) {
      const r = p as { record_date: string | null; count: number; rates: { security: string; avg_interest_rate: number | null }[] };
      return {
        record_date: r.record_date,
        count: r.count,
        total_interest_bearing_debt_percent: r.rates.find((x) => x.security === "Total Interest-bearing Debt")?.avg_interest_rate ?? null,
      };
    },
  },
  {
    feed: "basis",
    description: "Equity vs 24/7 perpetual basis of every US stock perp, as GET /api/v1/basis returned it",
    entities: ["us_equity_perps"],
    fetch: (_e, { providers, now }) => getBasis({ limit: 500, min_basis: 0 }, { providers, now }),
    summarize(p) {
      const b = p as { count: number; us_market_open: boolean; rows: { ticker: string; comparable: boolean; basis_percent: number | null }[] };
      const widest = b.rows.find((x) => x.comparable);
      return {
        count: b.count,
        comparable: b.rows.filter((x) => x.comparable).length,
        us_market_open: b.us_market_open,
        widest_ticker: widest?.ticker ?? null,
        widest_basis_percent: widest?.basis_percent ?? null,
      };
    },
  },
];
