// The S&P 500 screener's contract: the index's members with their fundamentals, filtered, sorted and paged.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, queryInt, queryNumber } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const SORT_COLUMNS = [
  "market_cap",
  "pe_trailing",
  "dividend_yield",
  "price",
  "eps_trailing",
  "price_to_book",
  "price_to_sales",
  "ebitda",
  "week52_low",
  "week52_high",
  "symbol",
  "name",
] as const;

// Short descriptions on purpose: the rule they share (inclusive bounds; a member without the figure is left out) is said
// once, in the operation's description.
const range = (what: string, unit: string, bounds: { min: number; max: number }) => ({
  min: queryNumber(bounds)
    .optional()
    .meta({ description: `Minimum ${what} (${unit}).` }),
  max: queryNumber(bounds)
    .optional()
    .meta({ description: `Maximum ${what} (${unit}).` }),
});
const marketCap = range("market cap", "USD", { min: 0, max: 1e14 });
const pe = range("trailing P/E", "ratio", { min: 0, max: 1e6 });
const dividend = range("dividend yield", "0.02 is 2 %", { min: 0, max: 1 });
const price = range("price", "USD", { min: 0, max: 1e7 });
const eps = range("trailing EPS", "USD per share", { min: -1e5, max: 1e5 });
const pb = range("price to book", "ratio", { min: -1e6, max: 1e6 });
const ps = range("price to sales", "ratio", { min: 0, max: 1e6 });

export const screenerQuery = z.object({
  search: z.string().min(1).max(60).optional().meta({ description: "Text in the symbol or company name (any case)." }),
  sub_industry: z.string().min(1).max(100).optional().meta({
    description:
      "Text in the GICS sub-industry as held (any case), e.g. semiconductors. The source's sector column is the sub-industry; the 11 GICS sectors are not held.",
  }),
  min_market_cap: marketCap.min,
  max_market_cap: marketCap.max,
  min_pe: pe.min,
  max_pe: pe.max,
  min_dividend_yield: dividend.min,
  max_dividend_yield: dividend.max,
  min_price: price.min,
  max_price: price.max,
  min_eps: eps.min,
  max_eps: eps.max,
  min_price_to_book: pb.min,
  max_price_to_book: pb.max,
  min_price_to_sales: ps.min,
  max_price_to_sales: ps.max,
  sort: z.enum(SORT_COLUMNS).default("market_cap").meta({ description: "Column to sort by. Members without a value sort last either way; ties by symbol." }),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: queryInt(1, 100).default(25).meta({ description: "Rows per page (at most 100)." }),
  offset: queryInt(0, 1000).default(0).meta({ description: "Rows to skip (the answer's next_offset is the next page's)." }),
});

const num = (description: string) => z.number().nullable().meta({ description });

export const screenerRow = z.object({
  symbol: z.string(),
  name: z.string(),
  gics_sub_industry: z.string().meta({ description: "GICS sub-industry as the source holds it (its `Sector` column)." }),
  price: num("USD, Yahoo's current price in that run."),
  market_cap: num("USD."),
  pe_trailing: num("Trailing P/E; null when Yahoo gives none (e.g. negative earnings)."),
  eps_trailing: num("Trailing twelve-month EPS, USD per share."),
  dividend_yield: num("A fraction (0.0175 = 1.75 %); null when Yahoo reports none."),
  week52_low: num("USD."),
  week52_high: num("USD."),
  ebitda: num("USD."),
  price_to_sales: num("Trailing twelve months."),
  price_to_book: num("Negative when book value is negative."),
});

export const screenerResponse = z.object({
  ...envelope,
  as_of: envelope.as_of.meta({ description: "When the figures were produced: the source job's run (its commit time), not a market close." }),
  index: z.string(),
  figures: z.string().meta({ description: "What the figures are and when they were taken." }),
  sector_note: z.string(),
  provenance: z.string(),
  licence: z.string(),
  members: z.number().meta({ description: "Members held." }),
  total: z.number().meta({ description: "Members matching the filters." }),
  count: z.number(),
  offset: z.number(),
  next_offset: z.number().nullable().meta({ description: "offset of the next page; null on the last." }),
  sort: z.object({ by: z.enum(SORT_COLUMNS), order: z.enum(["asc", "desc"]) }),
  rows: z.array(screenerRow),
});

export const contract = {
  key: "screener",
  method: "GET",
  path: "/api/v1/screener/sp500",
  upstreamPath: "/screener/sp500",
  summary: "S&P 500 stock screener: market cap, P/E, dividend yield, EPS, 52-week range",
  description:
    "A stock screener over the S&P 500 members and their fundamentals: market cap, trailing P/E, dividend yield, trailing EPS, 52-week low and high, " +
    "EBITDA, price to sales and price to book, with the GICS sub-industry. The screener filters by ranges (inclusive; a member without that figure is left out), sub-industry and name or symbol; " +
    "sorts by any column ascending or descending; pages with limit and offset. The answer dates the figures and names their origin.",
  query: screenerQuery,
  response: screenerResponse,
  keywords: [
    "screener",
    "stock screener",
    "fundamental screener",
    "equity screener",
    "screen",
    "stocks",
    "fundamentals",
    "p/e",
    "pe ratio",
    "dividend",
    "yield",
    "market cap",
    "52-week",
    "eps",
    "sp500",
    "s&p 500",
    "sector",
    "valuation",
  ],
} satisfies OperationContract;
