// The crypto daily bars' contract: Coinbase BTC-USD and ETH-USD bars by UTC day.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const cryptoBarsPath = z.object({
  symbol: z
    .string()
    .regex(/^[A-Z0-9]{2,10}(-[A-Z]{3,4})?$/, "must be a Coinbase product id such as BTC-USD (or a bare asset such as BTC, read as BTC-USD)")
    .meta({ example: "BTC-USD", description: "Coinbase product id, upper case (BTC-USD, ETH-USD); a bare asset (BTC) means its USD pair." }),
});

export const cryptoBarsQuery = z.object({
  start: isoDate
    .optional()
    .meta({ description: "First UTC day (inclusive), YYYY-MM-DD. Without it, the bars end at `end` (or the latest day) and `limit` counts back." }),
  end: isoDate.optional().meta({ description: "Last UTC day (inclusive), YYYY-MM-DD. Without it and without `start`: the latest day held." }),
  limit: queryInt(1, 5000)
    .default(366)
    .meta({ description: "Most bars returned. With `start`, the first ones from it (next_start continues); otherwise the last ones up to `end`." }),
});

export const cryptoBar = z.strictObject({
  date: z.string().meta({ description: "The UTC day the bar covers (00:00 to 24:00 UTC)." }),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number().meta({ description: "Last trade before 00:00 UTC of the next day (not a 16:00 New York close)." }),
  volume: z.number().meta({ description: "Quantity traded that day, in coins of the base asset (not USD)." }),
  partial: z.boolean().meta({ description: "true: the source covers only part of this day (see partial_days), or the day is not over yet (live)." }),
});

export const cryptoBarsResponse = z.object({
  ...envelope,
  symbol: z.string(),
  venue: z.string().meta({ description: "One venue (Coinbase Exchange): not a cross-venue index price." }),
  day: z.string(),
  units: z.object({ price: z.string(), volume: z.string() }),
  provenance: z.string().meta({ description: "How the bars were made and where they came from." }),
  coverage: z.object({ first_date: z.string(), last_date: z.string() }).nullable().meta({ description: "Days held offline; null for live data." }),
  count: z.number(),
  truncated: z.boolean().meta({ description: "true when more bars follow: `limit` cut the window short, or (start without end) days are held after it." }),
  next_start: z.string().nullable().meta({ description: "With `start`: the day to ask from for the rest; null when nothing follows." }),
  bars: z.array(cryptoBar),
  partial_days: z
    .array(z.object({ date: z.string(), candles: z.number().nullable(), note: z.string() }))
    .meta({ description: "Days in this answer the source covers only in part." }),
  missing_days: z.array(z.string()).meta({ description: "UTC days inside the answered span with no bar in the source (none is made up)." }),
  note: z.string(),
});

export const contract = {
  key: "crypto_bars",
  method: "GET",
  path: "/api/v1/crypto/{symbol}/bars",
  upstreamPath: "/crypto/{symbol}/bars",
  summary: "Crypto daily price bars: Bitcoin and Ethereum (Coinbase BTC-USD, ETH-USD)",
  description:
    "Daily open, high, low, close and volume of bitcoin and ether against the US dollar on Coinbase Exchange, one bar per UTC day " +
    "(volume in coins), between two dates or the latest days. Days the source covers only in part are flagged, days it lacks are " +
    "listed, nothing is filled in.",
  pathParams: cryptoBarsPath,
  query: cryptoBarsQuery,
  response: cryptoBarsResponse,
  keywords: ["crypto", "bitcoin", "btc", "ethereum", "eth", "ether", "coinbase", "daily", "candles", "ohlcv", "price", "history"],
} satisfies OperationContract;
