// The shared provider layer every data operation builds on. MARKET_PROVIDER picks a kind (`embedded`: files shipped
// with the code, offline, the default; `live`: the vendors' APIs); `MarketProviders` is that kind's set:
// - `aggregates`, the price-bar source several operations share (aggregates, backtest, the basis quotes, the archive);
// - `family(f)`, an operation's own source (`ProviderFamily`: how it is built embedded and live), built once per set.
// An operation with a source of its own declares it in its folder; nothing here names an operation.

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

/** A bars request in Polygon's terms (the aggregates operation's query, validated by its contract). */
export type AggregatesParams = {
  ticker: string;
  multiplier: number;
  timespan: "minute" | "hour" | "day" | "week" | "month" | "quarter" | "year";
  from: string;
  to: string;
  adjusted: boolean;
  sort: "asc" | "desc";
  limit: number;
};

/** What a bars answer says about the series behind it (the embedded files; a live vendor states none). */
export type BarsSeriesInfo = {
  name: string;
  kind: "stock" | "etf" | "index";
  /** Where the file came from. */
  file_source: string;
  /** What the prices served are: the basis `adjusted` asked for. */
  prices: string;
  dividend_adjusted: boolean;
  volume: string;
  /** The days held on that basis. */
  first_date: string;
  last_date: string;
};

export interface AggregatesProvider {
  readonly name: string;
  /** Bars in Polygon semantics (buckets, limit on base bars, sort). Throws unknown_ticker / not_included. */
  getAggregates(p: AggregatesParams): Promise<{ bars: PriceBar[]; adjusted: boolean; series?: BarsSeriesInfo }>;
  /** Split-adjusted daily bars with from <= date <= to, oldest first. */
  getDailyBars(ticker: string, from: string, to: string): Promise<DailyBar[]>;
  /** First and last day the provider holds for `ticker` (null: open-ended, i.e. a live vendor). */
  coverage(ticker: string): Coverage | null;
}

export type ProviderKind = "embedded" | "live";

/**
 * The live vendors' settings. The three vendors the first operations use are typed here (validated in env.ts); an
 * operation with a vendor of its own reads its settings by name with `liveSetting` (live-setting.ts), so adding one
 * edits nothing shared. Timeouts and retries apply to every vendor (tests shorten them).
 */
export type LiveConfig = {
  massiveBaseUrl: string;
  massiveApiKey: string;
  treasuryBaseUrl: string;
  hyperliquidBaseUrl: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** Other vendors' settings by environment variable name (the process environment in production). */
  settings?: Readonly<Record<string, string | undefined>>;
};

/** What an operation's own source may build on: the shared sources of the same kind. */
export type SharedSources = { aggregates: AggregatesProvider };

/** An operation's own data source, as it is built offline and live (one object per operation folder). */
export type ProviderFamily<P> = {
  /** Names the family in errors and docs ("treasury-rates"). */
  readonly name: string;
  embedded(shared: SharedSources): P;
  live(cfg: LiveConfig, shared: SharedSources): P;
};

export type MarketProviders = {
  kind: ProviderKind;
  aggregates: AggregatesProvider;
  /** `f` built for this kind, once per set (so its own caches live as long as the set). */
  family<P>(f: ProviderFamily<P>): P;
};
