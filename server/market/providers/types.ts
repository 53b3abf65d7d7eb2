// One provider interface per data family; `embedded` (offline, the default) and `live` implement each.
import type { z } from "zod";
import type { aggregatesQuery } from "../../contracts/market";

export type AggregatesParams = z.output<typeof aggregatesQuery> & { ticker: string };

/** A price bar as the API returns it (SERVICE.md part 2: no other fields). */
export type PriceBar = {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  vwap: number | null;
  trade_count: number | null;
  timestamp: string | null;
};

/** One trading day, split-adjusted. */
export type DailyBar = { date: string; open: number; high: number; low: number; close: number; volume: number };

export type Coverage = { first: string; last: string };

export interface AggregatesProvider {
  readonly name: string;
  /** Bars in Polygon semantics (buckets, limit on base bars, sort). Throws unknown_ticker / not_included. */
  getAggregates(p: AggregatesParams): Promise<{ bars: PriceBar[]; adjusted: boolean }>;
  /** Split-adjusted daily bars with from <= date <= to, oldest first. */
  getDailyBars(ticker: string, from: string, to: string): Promise<DailyBar[]>;
  /** First and last day the provider holds for `ticker` (null: open-ended, i.e. a live vendor). */
  coverage(ticker: string): Coverage | null;
}

export type EquityQuote = { price: number; prev_close: number; as_of: string };

export interface EquityQuotesProvider {
  readonly name: string;
  /** Delayed official price and previous close; tickers without a quote are absent from the map. */
  getQuotes(tickers: string[]): Promise<{ as_of: string; quotes: Map<string, EquityQuote> }>;
}

export type PerpContext = {
  dex: string;
  /** Venue symbol, e.g. "xyz:TSLA". */
  symbol: string;
  /** Bare name, e.g. "TSLA". */
  name: string;
  markPx: number | null;
  oraclePx: number | null;
  /** Hourly funding rate (fraction). */
  funding: number | null;
  /** Open interest in base units (contracts), as the venue reports it. */
  openInterest: number | null;
  dayNtlVlm: number | null;
};

/** Where recorded perp data came from and the moment it describes; live data has none. */
export type PerpsProvenance = { kind: string; source: string; as_of: string };

export interface PerpsProvider {
  readonly name: string;
  getPerps(): Promise<{ as_of: string; venues: Record<string, string>; contexts: PerpContext[]; note: string | null; provenance: PerpsProvenance | null }>;
}

export type TreasuryRateRow = { security_type_desc: string; security_desc: string; avg_interest_rate_amt: string | null; src_line_nbr: number };

export interface RatesProvider {
  readonly name: string;
  getLatestAvgInterestRates(): Promise<{ record_date: string | null; as_of: string | null; rows: TreasuryRateRow[] }>;
}

export type MarketProviders = {
  kind: "embedded" | "live";
  aggregates: AggregatesProvider;
  quotes: EquityQuotesProvider;
  perps: PerpsProvider;
  rates: RatesProvider;
};
