// The forex rates operation's contract: reference rates against the US dollar (Federal Reserve H.10 daily, G.5
// monthly) and cross rates computed from them. Zod only (and the shared pieces in server/contracts).
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const FOREX_SOURCE = "federal_reserve";

/** Every currency quoted against the dollar here (H.10 / G.5), and the dollar; legacy euro-area codes are monthly to 2001. */
export const CURRENCIES = [
  "USD",
  "AUD",
  "BRL",
  "CAD",
  "CHF",
  "CNY",
  "DKK",
  "EUR",
  "GBP",
  "HKD",
  "INR",
  "JPY",
  "KRW",
  "LKR",
  "MXN",
  "MYR",
  "NOK",
  "NZD",
  "SEK",
  "SGD",
  "THB",
  "TWD",
  "ZAR",
  "ATS",
  "BEF",
  "DEM",
  "ESP",
  "FIM",
  "FRF",
  "GRD",
  "IEP",
  "ITL",
  "NLG",
  "PTE",
] as const;
export type Currency = (typeof CURRENCIES)[number];
export const FREQUENCIES = ["daily", "monthly"] as const;
export const MAX_ROWS = 10_000;

export const forexRatesQuery = z.object({
  base: z.enum(CURRENCIES).default("EUR").meta({
    description: "The base currency: the rate is the price of one unit of it, ISO 4217 (EUR, USD, JPY, GBP, ...). Default: EUR.",
    example: "EUR",
  }),
  quote: z.enum(CURRENCIES).default("USD").meta({
    description: "The quote currency: the rate is how many units of it one base unit buys (EUR/USD 1.17 is base EUR, quote USD). Default: USD.",
    example: "USD",
  }),
  frequency: z.enum(FREQUENCIES).optional().meta({
    description:
      "daily (H.10 noon buying rates in New York, business days) or monthly (G.5 monthly averages). Default: daily when both currencies have daily rates for the window, else monthly; the answer says which.",
  }),
  start: isoDate.optional().meta({ description: "First date (inclusive), YYYY-MM-DD. Default: 30 days (daily) or 11 months (monthly) before end." }),
  end: isoDate.optional().meta({ description: "Last date (inclusive), YYYY-MM-DD. Default: the last date both currencies have a rate." }),
  limit: queryInt(1, MAX_ROWS)
    .default(1000)
    .meta({ description: `Maximum rows, oldest first (1-${MAX_ROWS}); \`truncated\` says when more were in the window.` }),
});

export const forexRatesResponse = z.object({
  source: z.literal(FOREX_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When the rates were fetched (live); null offline, where the files' retrieval time is not known precisely." }),
  feedback: envelope.feedback,
  base: z.enum(CURRENCIES),
  quote: z.enum(CURRENCIES),
  quote_convention: z.string().meta({ description: "What a rate means, in words: units of `quote` per 1 `base`." }),
  frequency: z.enum(FREQUENCIES),
  frequency_note: z.string(),
  computed: z.boolean().meta({
    description: "false only when every rate is a figure the Federal Reserve published, in its own direction; true for a reciprocal or a cross rate.",
  }),
  method: z.string().nullable().meta({ description: "How a computed rate was derived from the published ones (null when not computed)." }),
  legs: z.array(
    z.object({
      currency: z.string(),
      series: z.string().meta({ description: "The published series: FRED id offline (DEXUSEU, EXJPUS), H.10 identifier live (RXI$US_N.B.EU)." }),
      published_quote: z.string().meta({ description: "The direction the Fed publishes it in (USD per EUR, JPY per USD)." }),
      note: z.string().nullable(),
    }),
  ),
  start: z.string(),
  end: z.string(),
  count: z.number(),
  truncated: z.boolean(),
  rates: z
    .array(z.object({ date: z.string().meta({ description: "YYYY-MM-DD; for monthly rows the first day of the month averaged." }), rate: z.number() }))
    .meta({ description: "Oldest first. A date on which a currency has no published rate has no row: nothing is carried over or filled in." }),
  missing_dates: z
    .object({ count: z.number(), dates: z.array(z.string()).meta({ description: "The first 100." }) })
    .meta({ description: "Dates in the window the source lists with no rate for a currency (US holidays, or one leg of a cross absent that day)." }),
  notes: z.array(z.string()),
});

export const contract = {
  key: "forex_rates",
  method: "GET",
  path: "/api/v1/forex/rates",
  upstreamPath: "/forex/rates",
  summary: "Forex exchange rates against the US dollar (EUR/USD, USD/JPY, GBP/USD...) and cross rates, daily or monthly",
  description:
    "Reference foreign exchange rates from the Federal Reserve: the H.10 noon buying rates in New York (daily) and G.5 monthly averages, " +
    "for the major currencies against the US dollar, in the direction asked (`base`/`quote`: units of quote per 1 base). A reciprocal of a " +
    "published rate, or a cross rate between two non-dollar currencies (EUR/JPY) computed from their dollar rates on the same date, is " +
    "labelled `computed` with its method; a date missing for either currency is absent, never filled.",
  query: forexRatesQuery,
  response: forexRatesResponse,
  keywords: [
    "forex",
    "fx",
    "currency",
    "currencies",
    "exchange",
    "rate",
    "cross",
    "eur",
    "usd",
    "jpy",
    "gbp",
    "cny",
    "chf",
    "cad",
    "aud",
    "dollar",
    "euro",
    "yen",
    "pound",
    "h10",
    "fed",
  ],
} satisfies OperationContract;
