// The World Bank indicators operation's contract: World Development Indicators by country and year.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it.
import { z } from "zod";
import { envelope, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const WORLD_BANK_SOURCE = "world_bank";

/** The indicators sold, by the World Bank's own id, each with the alias an agent may use instead. */
export const WORLD_BANK_INDICATORS = [
  { id: "NY.GDP.MKTP.CD", alias: "gdp", name: "GDP (current US$)", units: "current US dollars" },
  { id: "NY.GDP.MKTP.KD.ZG", alias: "gdp_growth", name: "GDP growth (annual %)", units: "percent, real (constant local currency)" },
  { id: "FP.CPI.TOTL.ZG", alias: "inflation", name: "Inflation, consumer prices (annual %)", units: "percent (annual average change of the CPI)" },
  { id: "SP.POP.TOTL", alias: "population", name: "Population, total", units: "persons (midyear estimate)" },
] as const;

export type WorldBankIndicator = (typeof WORLD_BANK_INDICATORS)[number];
export const INDICATOR_NAMES = WORLD_BANK_INDICATORS.flatMap((i) => [i.id, i.alias]) as [string, ...string[]];
export const MAX_COUNTRIES = 20;

export const worldBankIndicatorsPath = z.object({
  indicator: z.enum(INDICATOR_NAMES).meta({
    description:
      "The World Bank indicator id or its alias: NY.GDP.MKTP.CD (gdp, current US$), NY.GDP.MKTP.KD.ZG (gdp_growth, annual %), " +
      "FP.CPI.TOTL.ZG (inflation, consumer prices, annual %), SP.POP.TOTL (population).",
  }),
});

export const worldBankIndicatorsQuery = z.object({
  countries: z
    .string()
    .max(4 * MAX_COUNTRIES)
    .regex(new RegExp(`^[A-Za-z]{2,3}(,[A-Za-z]{2,3}){0,${MAX_COUNTRIES - 1}}$`), `must be 1 to ${MAX_COUNTRIES} comma-separated country codes such as USA,DEU`)
    .default("WLD")
    .meta({
      description:
        `Comma-separated codes, 1 to ${MAX_COUNTRIES}: ISO 3166-1 alpha-3 (USA, DEU, CHN), World Bank aggregate codes (WLD for the World, ` +
        "EUU, EMU, HIC, ...; each is marked `aggregate` in the answer) or ISO alpha-2 (US, DE), mapped to alpha-3. Default: WLD (the World).",
      example: "USA,DEU",
    }),
  start_year: queryInt(1960, 2100).optional().meta({ description: "First year (inclusive). Default: nine years before end_year." }),
  end_year: queryInt(1960, 2100)
    .optional()
    .meta({ description: "Last year (inclusive). Default: the indicator's last year held (offline) or last year (live)." }),
});

const countryOut = z.object({
  requested: z.string().meta({ description: "The code as the request named it." }),
  code: z.string().meta({ description: "The World Bank's 3-letter code (ISO 3166-1 alpha-3 for economies)." }),
  name: z.string().nullable(),
  aggregate: z
    .boolean()
    .nullable()
    .meta({ description: "true for a region, income or lending group or the World; null when not known (live, a code not on the shelf)." }),
  observations: z.number(),
});

export const worldBankIndicatorsResponse = z.object({
  source: z.literal(WORLD_BANK_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "Offline: the WDI update the values come from, when the file states it (null when not); live: when they were fetched." }),
  feedback: envelope.feedback,
  indicator: z.object({ id: z.string(), alias: z.string(), name: z.string(), units: z.string() }),
  start_year: z.number(),
  end_year: z.number(),
  countries: z.array(countryOut),
  count: z.number(),
  observations: z
    .array(z.object({ country_code: z.string(), year: z.number(), value: z.number() }))
    .meta({ description: "By country in the order requested, then year ascending. A year with no value has no row (nothing is filled in)." }),
  last_updated: z.string().nullable().meta({ description: "The World Bank's last update of the indicator, as its download or API states it." }),
  notes: z.array(z.string()),
});

export const contract = {
  key: "world_bank_indicators",
  method: "GET",
  path: "/api/v1/world-bank/indicators/{indicator}",
  upstreamPath: "/world-bank/indicators/{indicator}",
  summary: "World Bank indicators by country and year: GDP, GDP growth, inflation, population",
  description:
    "Annual World Development Indicators from the World Bank for up to 20 countries or aggregates (World, regions, income groups) " +
    "between two years: GDP in current US dollars (NY.GDP.MKTP.CD), real GDP growth in percent (NY.GDP.MKTP.KD.ZG), consumer price " +
    "inflation in percent (FP.CPI.TOTL.ZG) and total population (SP.POP.TOTL). Values exactly as the World Bank publishes them, one " +
    "row per country and year; missing years are absent, never filled.",
  pathParams: worldBankIndicatorsPath,
  query: worldBankIndicatorsQuery,
  response: worldBankIndicatorsResponse,
  keywords: ["world", "bank", "wdi", "gdp", "growth", "inflation", "population", "country", "countries", "global", "macro", "annual", "economy", "indicator"],
} satisfies OperationContract;
