// The aggregates operation's contract (SERVICE.md parts 2 and 4).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, isoDate, queryBool, queryInt, ticker } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

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
  adjusted: queryBool.default(true).meta({
    description:
      "Adjust for splits (prices at full precision, not rounded). false: prices as traded; a file held only on a dividend-adjusted basis answers 403 not_included (reason unadjusted_not_included) rather than serve other prices.",
  }),
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

export const barsSeries = z
  .object({
    name: z.string(),
    kind: z.enum(["stock", "etf", "index"]),
    file_source: z.string().meta({ description: "Where the file behind the bars came from (repository, commit, path)." }),
    prices: z
      .string()
      .meta({ description: "What the prices are on the basis `adjusted` asked for: split-adjusted, also dividend-adjusted (total return), or as traded." }),
    dividend_adjusted: z
      .boolean()
      .meta({ description: "true: prices are back-adjusted for dividends, so they are total-return prices, not quotes anyone traded at." }),
    volume: z.string(),
    first_date: z.string().meta({ description: "First day held on this basis." }),
    last_date: z.string().meta({ description: "Last day held on this basis." }),
  })
  .meta({ description: "The offline file behind the bars: its adjustment basis and the days it holds (absent for live data)." });

export const aggregatesResponse = z.object({
  ...envelope,
  ticker: z.string(),
  series: barsSeries.optional(),
  data: z.object({
    bars: z.array(priceBar),
    count: z.number(),
    adjusted: z.boolean().optional(),
  }),
});

export const contract = {
  key: "aggregates",
  method: "GET",
  path: "/api/v1/aggregates/{ticker}",
  upstreamPath: "/aggregates/{ticker}",
  summary: "OHLCV price bars for a US-listed stock or ETF",
  description:
    "Open, high, low, close, volume, VWAP and trade count bars over a date range, in multiplier x timespan buckets " +
    "(minute to year) in America/New_York time. Stocks and ETFs. Polygon aggregates semantics: buckets are whole calendar " +
    "periods (weeks start on Sunday), stamped at their start; `limit` caps the base bars read and a bucket it cuts short is dropped.",
  pathParams: aggregatesPath,
  query: aggregatesQuery,
  response: aggregatesResponse,
  keywords: [
    "stock",
    "stock prices",
    "price",
    "history",
    "candles",
    "ohlc",
    "daily",
    "intraday",
    "equity",
    "etf",
    "quote",
    "msft",
    "spy",
    "goog",
    "sector etf",
  ],
} satisfies OperationContract;
