// Parameters and responses of the seven market data operations (SERVICE.md parts 2, 4 and 8).
// The upstream validates with these, the OpenAPI document is generated from them, tests check
// responses against them: one source of truth.
import { z } from "zod";
import { envelope, isoDate, queryBool, queryInt, queryNumber, ticker } from "./common";

// ---------- aggregates ----------

export const AGGREGATES_DEFAULT_FROM = "2017-01-03";
export const AGGREGATES_DEFAULT_TO = "2018-01-03"; // one year after the default `from`

export const aggregatesPath = z.object({ ticker });
export const aggregatesQuery = z.object({
  multiplier: queryInt(1, 50000)
    .default(1)
    .meta({ description: "Size of a bucket, in timespans. Buckets follow one another from the start of the period holding `from`." }),
  timespan: z.enum(["minute", "hour", "day", "week", "month", "quarter", "year"]).default("day"),
  from: isoDate.default(AGGREGATES_DEFAULT_FROM).meta({
    description:
      "Start date (inclusive), YYYY-MM-DD. Buckets are whole calendar periods (America/New_York): the first one starts on the first day of the period holding `from` (for weeks the Sunday on or before it), so it can hold sessions before `from`.",
  }),
  to: isoDate.default(AGGREGATES_DEFAULT_TO).meta({
    description: "End date (inclusive), YYYY-MM-DD. The bucket holding `to` is returned whole, up to the last day of its period.",
  }),
  adjusted: queryBool.default(true).meta({ description: "Adjust for splits (prices at full precision, not rounded)." }),
  sort: z.enum(["asc", "desc"]).default("asc"),
  limit: queryInt(1, 50000).default(5000).meta({
    description: "Maximum number of base bars (daily or minute) read to build the result, in `sort` order. A bucket the limit cuts short is not returned.",
  }),
});

export const priceBar = z.strictObject({
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  vwap: z.number().nullable(),
  trade_count: z.number().nullable(),
  timestamp: z.string().nullable().meta({ description: "Start of the bucket's period (ISO 8601, UTC): 00:00 New York on its first calendar day." }),
});

export const aggregatesResponse = z.object({
  ...envelope,
  ticker: z.string(),
  data: z.object({
    bars: z.array(priceBar),
    count: z.number(),
    adjusted: z.boolean().optional(),
  }),
});

// ---------- archive ----------

export const ARCHIVE_RANGE_DEFAULT_LIMIT = 90;

export const archiveFeedPath = z.object({
  feed: z.string().regex(/^[a-z0-9][a-z0-9_\-]{0,63}$/, "must be a feed name from the archive catalog"),
});
const archiveEntity = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._\-:]+$/, "must be an entity name from the archive catalog");

export const archiveCatalogQuery = z.object({});
export const archiveDayQuery = z.object({
  date: isoDate.optional().meta({ description: "The UTC day to return. Default: the latest captured day." }),
  entity: archiveEntity.optional().meta({ description: "Entity on multi-entity feeds. Default: the feed's first entity." }),
});
export const archiveRangeQuery = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  entity: archiveEntity.optional(),
  limit: queryInt(1, 366).default(ARCHIVE_RANGE_DEFAULT_LIMIT),
});

const coverage = z.object({ first_date: z.string(), last_date: z.string(), days: z.number() }).nullable();

export const archiveCatalogResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  note: z.string(),
  count: z.number(),
  feeds: z.array(
    z.object({
      feed: z.string(),
      description: z.string().nullable(),
      entities: z.array(z.object({ entity: z.string(), coverage })),
    }),
  ),
});

export const archiveSnapshotResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  snapshot: z.object({
    feed: z.string(),
    entity: z.string(),
    observed_date: z.string(),
    observed_at: z.string(),
    captured_at: z.string(),
    ingested_at: z.string(),
    content_hash: z.string(),
    summary: z.record(z.string(), z.unknown()),
    payload: z.unknown(),
  }),
});

export const archiveRangeResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  feed: z.string(),
  entity: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  count: z.number(),
  note: z.string(),
  days: z.array(
    z.object({
      observed_date: z.string(),
      observed_at: z.string(),
      captured_at: z.string(),
      content_hash: z.string(),
      summary: z.record(z.string(), z.unknown()),
    }),
  ),
});

// ---------- average interest rates ----------

export const avgInterestRatesQuery = z.object({});
export const avgInterestRatesResponse = z.object({
  source: z.literal("us_treasury"),
  as_of: z.string().nullable(),
  feedback: envelope.feedback,
  series: z.string(),
  unit: z.string(),
  record_date: z.string().nullable(),
  count: z.number(),
  rates: z.array(
    z.object({
      security_type: z.string(),
      security: z.string(),
      avg_interest_rate: z.number().nullable().meta({ description: "Percent." }),
    }),
  ),
});

// ---------- backtest ----------

export const backtestPath = z.object({ ticker });
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
  }),
  disclaimer: z.string(),
});

// ---------- basis ----------

export const basisQuery = z.object({
  limit: queryInt(1, 500).default(100).meta({ description: "Maximum rows returned (widest dislocation first)." }),
  min_basis: queryNumber({ min: 0, max: 100 })
    .default(0)
    .meta({ description: "Only rows whose absolute basis_percent is at least this (percent). Non-comparable rows are dropped when > 0." }),
});

export const basisRow = z.object({
  ticker: z.string(),
  equity_price: z.number().nullable(),
  equity_prev_close: z.number().nullable(),
  equity_change_percent: z.number().nullable(),
  equity_as_of: z.string().nullable(),
  perp_symbol: z.string().nullable(),
  perp_mark: z.number().nullable(),
  perp_oracle: z.number().nullable(),
  perp_open_interest: z.number().nullable().meta({ description: "Open interest in contracts (one contract = one share), as the venue reports it." }),
  perp_day_volume_usd: z.number().nullable().meta({ description: "24h notional volume in USD." }),
  perp_funding_apr_percent: z.number().nullable().meta({ description: "Hourly funding rate x 24 x 365 x 100." }),
  basis_percent: z.number().nullable().meta({ description: "(perp_mark - equity_price) / equity_price x 100." }),
  basis_absolute: z.number().nullable().meta({ description: "perp_mark - equity_price, USD." }),
  basis_vs_prev_close_percent: z
    .number()
    .nullable()
    .meta({ description: "Perp mark against the previous official close: the implied overnight move while the US market is shut." }),
  direction: z.enum(["premium", "discount", "flat", "unknown"]).meta({ description: "flat within +/-0.05%; unknown when not comparable." }),
  comparable: z.boolean(),
  excluded_reason: z.string().nullable().meta({ description: "Why the row is not comparable: no_equity_quote or no_perp_mark; null when comparable." }),
});

export const basisResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  venue_map: z.record(z.string(), z.string()).meta({ description: "Perp venue (HIP-3 dex) to its display name." }),
  us_market_open: z.boolean().meta({ description: "Whether the NYSE regular session (09:30-16:00 New York, Mon-Fri) was open when the perp data was taken." }),
  reading: z.string(),
  method: z.string(),
  count: z.number(),
  rows: z.array(basisRow),
  sections: z
    .array(z.object({ title: z.string(), tickers: z.array(z.string()) }))
    .meta({ description: "Tickers of the returned rows grouped as premium, discount, flat and not_comparable." }),
  note: z.string().nullable().meta({ description: "Data provenance caveats (for example the embedded snapshot); null for live data." }),
  provenance: z
    .object({
      kind: z.string().meta({ description: "recorded: a recording of the venues' answers, not live data." }),
      source: z.string().meta({ description: "Where the recorded perp data and equity prices came from." }),
      as_of: z.string().meta({ description: "The moment the perp data describes (ISO 8601); each row's equity_as_of dates its equity price." }),
    })
    .nullable()
    .meta({ description: "Provenance of recorded data (the embedded snapshot); null for live data." }),
  total_available: z.number().meta({ description: "US stock perpetuals found before limit and min_basis." }),
});
