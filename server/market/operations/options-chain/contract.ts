// The options chain snapshot's contract (Massive's /v3/snapshot/options/{underlyingAsset}); live only.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, isoDate, queryInt, queryNumber, ticker } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const optionsChainPath = z.object({ underlying: ticker.meta({ description: "The underlying's US-listed symbol (AAPL, SPY)." }) });

export const optionsChainQuery = z.object({
  contract_type: z.enum(["call", "put"]).optional().meta({ description: "Only calls or only puts." }),
  expiration_date: isoDate.optional().meta({ description: "Only contracts expiring on this day." }),
  expiration_from: isoDate.optional().meta({ description: "Only contracts expiring on or after this day." }),
  expiration_to: isoDate.optional().meta({ description: "Only contracts expiring on or before this day." }),
  strike_min: queryNumber({ min: 0, max: 1_000_000 }).optional().meta({ description: "Only strikes at or above this (USD)." }),
  strike_max: queryNumber({ min: 0, max: 1_000_000 }).optional().meta({ description: "Only strikes at or below this (USD)." }),
  sort: z.enum(["expiration_date", "strike_price", "ticker"]).default("expiration_date"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: queryInt(1, 250).default(100).meta({ description: "Most contracts returned (Massive's page size, at most 250)." }),
});

const n = () => z.number().nullable();

export const optionContract = z.object({
  contract: z.string().meta({ description: "OCC-style option ticker as Massive writes it (O:AAPL230616C00150000)." }),
  contract_type: z.string().nullable(),
  exercise_style: z.string().nullable(),
  expiration_date: z.string().nullable(),
  strike_price: n(),
  shares_per_contract: n(),
  break_even_price: n(),
  implied_volatility: n(),
  open_interest: n(),
  fair_market_value: n().meta({ description: "Massive's fmv, where the plan includes it." }),
  greeks: z.object({ delta: n(), gamma: n(), theta: n(), vega: n() }).nullable(),
  day: z
    .object({
      open: n(),
      high: n(),
      low: n(),
      close: n(),
      volume: n(),
      vwap: n(),
      change: n(),
      change_percent: n(),
      previous_close: n(),
      last_updated: z.string().nullable(),
    })
    .nullable(),
  last_quote: z
    .object({ bid: n(), ask: n(), bid_size: n(), ask_size: n(), midpoint: n(), last_updated: z.string().nullable(), timeframe: z.string().nullable() })
    .nullable(),
  last_trade: z.object({ price: n(), size: n(), exchange: n(), sip_timestamp: z.string().nullable(), timeframe: z.string().nullable() }).nullable(),
});

export const optionsChainResponse = z.object({
  ...envelope,
  ticker: z.string().meta({ description: "The underlying." }),
  underlying: z
    .object({ price: n(), last_updated: z.string().nullable(), timeframe: z.string().nullable() })
    .nullable()
    .meta({ description: "The underlying's price as the first contract's snapshot gives it; null when none matched." }),
  count: z.number(),
  has_more: z.boolean().meta({ description: "true: the vendor holds more contracts matching; narrow the filters (expiration, strikes, type)." }),
  contracts: z.array(optionContract),
  note: z.string(),
});

export const contract = {
  key: "options_chain",
  method: "GET",
  path: "/api/v1/options/{underlying}/chain",
  upstreamPath: "/options/{underlying}/chain",
  summary: "Options chain snapshot for a US stock or ETF: quotes, greeks, implied volatility, open interest",
  description:
    "A snapshot of an underlying's listed options (calls and puts): strike, expiration, last quote, last trade, day bar, implied volatility, " +
    "delta, gamma, theta, vega, open interest and break-even, filtered by type, expiration and strike range. Live data from Massive " +
    "(formerly Polygon.io) only: no options data is held offline.",
  pathParams: optionsChainPath,
  query: optionsChainQuery,
  response: optionsChainResponse,
  keywords: ["options", "option chain", "calls", "puts", "greeks", "implied volatility", "iv", "open interest", "strike", "expiration", "derivatives"],
} satisfies OperationContract;
