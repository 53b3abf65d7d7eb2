// The energy prices operation's contract: EIA prices of crude oil, natural gas and retail gasoline.
// Zod only (and the shared pieces in server/contracts).
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const ENERGY_SOURCE = "eia";

/** The commodities sold, by path name (natural-gas is Henry Hub's other name), with EIA's series. */
export const COMMODITIES = {
  wti: {
    series: "RWTC",
    name: "WTI crude oil spot price, Cushing, Oklahoma (FOB)",
    units: "USD per barrel",
    published: ["daily", "weekly", "monthly", "annual"],
  },
  brent: { series: "RBRTE", name: "Brent crude oil spot price, Europe (FOB)", units: "USD per barrel", published: ["daily", "weekly", "monthly", "annual"] },
  "henry-hub": {
    series: "RNGWHHD",
    name: "Henry Hub natural gas spot price",
    units: "USD per million Btu (MMBtu)",
    published: ["daily", "weekly", "monthly", "annual"],
  },
  "natural-gas": {
    series: "RNGWHHD",
    name: "Henry Hub natural gas spot price",
    units: "USD per million Btu (MMBtu)",
    published: ["daily", "weekly", "monthly", "annual"],
  },
  gasoline: {
    series: "EMM_EPMR_PTE_NUS_DPG",
    name: "US regular gasoline retail price, all formulations",
    units: "USD per gallon",
    published: ["weekly", "monthly", "annual"],
  },
} as const;
export type Commodity = keyof typeof COMMODITIES;
export const FREQUENCIES = ["daily", "weekly", "monthly", "annual"] as const;
export type EnergyFrequency = (typeof FREQUENCIES)[number];
export const MAX_ROWS = 12_000;

export const energyPricesPath = z.object({
  commodity: z.enum(Object.keys(COMMODITIES) as [Commodity, ...Commodity[]]).meta({
    description:
      "wti (WTI crude, USD/barrel, daily), brent (Brent crude, USD/barrel, daily), henry-hub or natural-gas (Henry Hub natural gas, USD/MMBtu, daily), " +
      "gasoline (US regular retail gasoline, USD/gallon, weekly).",
  }),
});

export const energyPricesQuery = z.object({
  start: isoDate
    .optional()
    .meta({ description: "First date (inclusive), YYYY-MM-DD. Default: 30 days before end (365 for weekly, 5 years for monthly, 20 for annual)." }),
  end: isoDate.optional().meta({ description: "Last date (inclusive), YYYY-MM-DD. Default: the last date held (offline) or today (live)." }),
  frequency: z
    .enum(FREQUENCIES)
    .optional()
    .meta({
      description:
        "As EIA publishes it: daily for crude and natural gas, weekly for gasoline (the default). EIA's own weekly, monthly and annual averages are served live; " +
        "offline only the published daily (crude, gas) and weekly (gasoline) prices are held, and another frequency answers 403 not_included (nothing is averaged here).",
    }),
  limit: queryInt(1, MAX_ROWS)
    .default(1000)
    .meta({ description: `Maximum rows, oldest first (1-${MAX_ROWS}); \`truncated\` says when more were in the window.` }),
});

export const energyPricesResponse = z.object({
  source: z.literal(ENERGY_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When the prices were fetched (live); null offline, where the files' retrieval time is not known precisely." }),
  feedback: envelope.feedback,
  commodity: z.enum(Object.keys(COMMODITIES) as [Commodity, ...Commodity[]]),
  series: z.object({
    id: z.string().meta({ description: "EIA series id (RWTC, RBRTE, RNGWHHD, EMM_EPMR_PTE_NUS_DPG)." }),
    name: z.string(),
    units: z.string(),
  }),
  frequency: z.enum(FREQUENCIES),
  frequency_note: z.string(),
  start: z.string(),
  end: z.string(),
  count: z.number(),
  truncated: z.boolean(),
  prices: z
    .array(
      z.object({
        date: z.string().meta({ description: "YYYY-MM-DD: the trading day, the week's date as EIA stamps it, or the first day of the month or year." }),
        value: z.number().meta({ description: "The price in `series.units`, as EIA publishes it. Can be negative (WTI closed at -36.98 on 2020-04-20)." }),
      }),
    )
    .meta({ description: "Oldest first; only dates EIA published a price for (no row is filled in)." }),
  notes: z.array(z.string()),
});

export const contract = {
  key: "energy_prices",
  method: "GET",
  path: "/api/v1/energy/{commodity}",
  upstreamPath: "/energy/{commodity}",
  summary: "Energy commodity prices: WTI and Brent crude oil, Henry Hub natural gas, US gasoline (EIA)",
  description:
    "Prices from the U.S. Energy Information Administration between two dates: WTI and Brent crude oil spot prices in USD per barrel " +
    "and Henry Hub natural gas spot prices in USD per MMBtu (daily, trading days), and the US regular gasoline retail price in USD per " +
    "gallon (weekly). Values exactly as EIA publishes them, negative ones included; a day without a price has no row.",
  pathParams: energyPricesPath,
  query: energyPricesQuery,
  response: energyPricesResponse,
  keywords: [
    "energy",
    "oil",
    "crude",
    "wti",
    "brent",
    "gas",
    "natural",
    "henry",
    "hub",
    "gasoline",
    "petrol",
    "fuel",
    "barrel",
    "commodity",
    "commodities",
    "eia",
    "spot",
  ],
} satisfies OperationContract;
