// The built-in operation contracts, keyed by operation key. The demo seed creates catalog rows from these,
// and the OpenAPI generator pairs every catalog operation with its contract (parameters and response).
import { z } from "zod";
import * as m from "./market";

export type OperationContract = {
  key: string;
  method: "GET" | "POST";
  /** Public path template on the storefront. */
  path: string;
  /** Path template on the service's upstream. */
  upstreamPath: string;
  summary: string;
  description: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  /** Words agents use for this operation that appear nowhere else (boost search). */
  keywords?: string[];
};

export const advisorGuideQuery = z.object({
  goal: z.string().min(1).max(500).meta({ description: "The task, in plain words (URL-encoded).", example: "daily AAPL bars for 2017" }),
});
export const advisorQuoteBody = z.object({
  goal: z.string().min(1).max(500),
  budget_usd: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/)
    .optional()
    .meta({ description: "Known budget, decimal USD." }),
  requirements: z.array(z.string().max(200)).max(20).optional(),
});
export const advisorGuideResponse = z.object({
  goal: z.string(),
  recommendations: z.array(
    z.object({
      operation: z.string(),
      method: z.string(),
      path: z.string(),
      service: z.string(),
      summary: z.string(),
      price_usd: z.string(),
      meter: z.string().nullable(),
      score: z.number(),
    }),
  ),
  plans: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
  steps: z.array(z.string()),
  estimated_cost_usd: z.string().nullable(),
  note: z.string(),
});

export const OPERATION_CONTRACTS: Record<string, OperationContract> = {
  aggregates: {
    key: "aggregates",
    method: "GET",
    path: "/api/v1/aggregates/{ticker}",
    upstreamPath: "/aggregates/{ticker}",
    summary: "OHLCV price bars for a US-listed ticker",
    description:
      "Open, high, low, close, volume, VWAP and trade count bars over a date range, in multiplier x timespan buckets " +
      "(minute to year) in America/New_York time. Stocks and ETFs. Polygon aggregates semantics: buckets are whole calendar " +
      "periods (weeks start on Sunday), stamped at their start; `limit` caps the base bars read and a bucket it cuts short is dropped.",
    pathParams: m.aggregatesPath,
    query: m.aggregatesQuery,
    response: m.aggregatesResponse,
    keywords: ["stock", "price", "history", "candles", "ohlc", "daily", "intraday", "equity", "etf", "quote"],
  },
  archive_catalog: {
    key: "archive_catalog",
    method: "GET",
    path: "/api/v1/archive",
    upstreamPath: "/archive",
    summary: "Archive catalog: feeds, entities and coverage",
    description: "Every point-in-time archive feed and entity with its first and last captured day.",
    query: m.archiveCatalogQuery,
    response: m.archiveCatalogResponse,
    keywords: ["snapshot", "point-in-time", "history", "coverage"],
  },
  archive_day: {
    key: "archive_day",
    method: "GET",
    path: "/api/v1/archive/{feed}",
    upstreamPath: "/archive/{feed}",
    summary: "One archived day of a feed (the exact payload captured that day)",
    description:
      "The immutable snapshot captured once per UTC day: the live payload as it was returned that day, with its " +
      "capture provenance (timestamps, content hash). Latest day unless `date` is given.",
    pathParams: m.archiveFeedPath,
    query: m.archiveDayQuery,
    response: m.archiveSnapshotResponse,
    keywords: ["snapshot", "point-in-time", "as of", "immutable"],
  },
  archive_range: {
    key: "archive_range",
    method: "GET",
    path: "/api/v1/archive/{feed}/range",
    upstreamPath: "/archive/{feed}/range",
    summary: "Per-day summaries of an archived feed over a date range",
    description: "Oldest first, without payloads (fetch a full day with the snapshot operation and `date`). `limit` at most 366.",
    pathParams: m.archiveFeedPath,
    query: m.archiveRangeQuery,
    response: m.archiveRangeResponse,
    keywords: ["snapshot", "history", "timeline"],
  },
  avg_interest_rates: {
    key: "avg_interest_rates",
    method: "GET",
    path: "/api/v1/avg-interest-rates",
    upstreamPath: "/avg-interest-rates",
    summary: "Average interest rates on US Treasury debt, by security type",
    description:
      "The average interest rate the US Treasury pays on its outstanding debt for the latest reported month, in percent: " +
      "bills, notes, bonds, TIPS, FRNs, savings securities and the marketable and total aggregates (Fiscal Data).",
    query: m.avgInterestRatesQuery,
    response: m.avgInterestRatesResponse,
    keywords: ["treasury", "interest", "rates", "yield", "debt", "macro", "government", "bonds", "bills", "notes", "fiscal"],
  },
  backtest: {
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
      "data.warmup says when that history is too short. `years` counts calendar years back from the last bar; data.window states the window used.",
    pathParams: m.backtestPath,
    query: m.backtestQuery,
    response: m.backtestResponse,
    keywords: ["strategy", "sma", "rsi", "research", "chart", "performance", "sharpe", "drawdown"],
  },
  basis: {
    key: "basis",
    method: "GET",
    path: "/api/v1/basis",
    upstreamPath: "/basis",
    summary: "Equity vs 24/7 perpetual basis for US stocks",
    description:
      "Every US stock that also trades as a 24/7 synthetic perpetual: official (delayed) price and previous close " +
      "against the perp mark and oracle, basis, funding APR, open interest and volume, widest dislocation first.",
    query: m.basisQuery,
    response: m.basisResponse,
    keywords: ["perpetual", "perp", "crypto", "funding", "premium", "discount", "overnight", "hyperliquid", "screener"],
  },
  advisor_guide: {
    key: "advisor_guide",
    method: "GET",
    path: "/vendor/agent/guide",
    upstreamPath: "",
    summary: "Free guide: which operations and plans fit a goal",
    description: "Needs no wallet and costs nothing. POST to the same path is also accepted.",
    query: advisorGuideQuery,
    response: advisorGuideResponse,
    keywords: ["help", "advisor", "recommend", "free"],
  },
  advisor_quote: {
    key: "advisor_quote",
    method: "POST",
    path: "/vendor/agent/quote",
    upstreamPath: "",
    summary: "Free quote for a goal and budget ($0 wallet proof)",
    description:
      "Costs $0 but needs a wallet proof: x402 in `Payment-Signature`, or MPP as `Authorization: Payment`. Returns a guide; never executes a purchase.",
    body: advisorQuoteBody,
    response: advisorGuideResponse,
    keywords: ["quote", "budget", "advisor", "free"],
  },
};

export function getContract(key: string): OperationContract | undefined {
  return OPERATION_CONTRACTS[key];
}
