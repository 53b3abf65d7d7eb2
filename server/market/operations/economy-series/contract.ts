// The economic series operation's contract: observations of one US economic series between two dates, optionally as
// they were known on a past date (ALFRED vintages). Zod only (and the shared pieces in server/contracts): the upstream
// validates with it, OpenAPI and the MCP tool are generated from it, tests check responses against it.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

/** Who produces a series' numbers; `fred` when only FRED is known (a series this storefront holds no metadata for, live). */
export const SERIES_SOURCES = ["federal_reserve", "bls", "bea", "us_treasury", "fred"] as const;

export const economySeriesPath = z.object({
  series_id: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,40}$/, "must be a FRED series id such as DGS10 (letters, digits, underscore)")
    .meta({
      description: "FRED series id, e.g. DGS10 (the free listing names those held).",
      example: "DGS10",
    }),
});

export const economySeriesQuery = z
  .object({
    start: isoDate.optional().meta({ description: "First observation date, inclusive." }),
    end: isoDate.optional().meta({ description: "Last observation date, inclusive." }),
    as_of: isoDate.optional().meta({
      description: "Values as known on this date (ALFRED vintages); 403 where no vintage is held, never today's values.",
    }),
    limit: queryInt(1, 10000).default(1000).meta({ description: "Maximum observations (has_more)." }),
    sort: z.enum(["asc", "desc"]).default("asc").meta({ description: "asc oldest first, desc newest first." }),
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: "end must be on or after start", path: ["end"] });

const observation = z.object({
  date: z.string().meta({ description: "Observation date (ISO): monthly = first of the month, quarterly = first day of the quarter." }),
  value: z
    .number()
    .nullable()
    .meta({ description: "In the series' units; null where FRED lists the date without a value (a market holiday, a release that did not happen)." }),
  published: z.string().nullable().meta({
    description:
      "The day this value was published or last revised (ALFRED's realtime_start), where the data says it; null where publication dates are not held (never guessed).",
  }),
});

export const economySeriesResponse = z.object({
  source: z
    .enum(SERIES_SOURCES)
    .meta({ description: "The agency that produces the numbers: federal_reserve, bls, bea, us_treasury (fred when only FRED is known)." }),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When these values were in effect: the vintage date for a point-in-time answer, else the day the data was retrieved (ISO 8601)." }),
  feedback: envelope.feedback,
  series_id: z.string(),
  title: z.string(),
  units: z.string(),
  frequency: z.string(),
  seasonal_adjustment: z.string(),
  publisher: z.string().nullable().meta({ description: "The publishing agency's name, as FRED states it." }),
  release: z.string().nullable().meta({ description: "The release the series belongs to (FRED's), e.g. H.15 Selected Interest Rates." }),
  distributor: z
    .enum(["fred", "bls"])
    .meta({ description: "Who served the numbers: fred (FRED/ALFRED, Federal Reserve Bank of St. Louis) or bls (the BLS API itself)." }),
  realtime: z.object({
    as_of: z.string().nullable().meta({ description: "The as_of asked, or null for the latest values." }),
    vintage_date: z.string().nullable().meta({ description: "The vintage answering: the last one on or before as_of (null for the latest values)." }),
    basis: z.enum(["latest", "alfred_vintage", "snapshot", "live"]).meta({
      description:
        "latest: the newest snapshot held; alfred_vintage: a vintage of ALFRED's real-time window; snapshot: the whole series as seen on that day; live: FRED/BLS now.",
    }),
  }),
  coverage: z
    .object({ first_date: z.string(), last_date: z.string() })
    .nullable()
    .meta({ description: "The observations held for this series (or this vintage) offline; null live." }),
  start: z.string().nullable(),
  end: z.string().nullable(),
  sort: z.enum(["asc", "desc"]),
  count: z.number(),
  has_more: z.boolean().meta({ description: "More observations lie in the window past limit." }),
  publication_dates: z.object({ held: z.boolean(), note: z.string() }),
  notes: z.array(z.string()).meta({ description: "What an agent must know about this answer: ranges not held, gaps, quotation basis." }),
  observations: z.array(observation),
});

export const contract = {
  key: "economy_series",
  method: "GET",
  path: "/api/v1/economy/series/{series_id}",
  upstreamPath: "/economy/series/{series_id}",
  summary: "US economic series: fed funds, Treasury yields (10-year and more), CPI, unemployment, payrolls, GDP, public debt",
  description:
    "Observations of a US economic series (rates, yields, prices, jobs, output, debt) between two dates, as its agency (Federal Reserve, BLS, " +
    "BEA, Treasury) published it and FRED distributes it, with units, frequency, seasonal adjustment and source; as_of answers as known on a " +
    "past date (ALFRED vintages).",
  pathParams: economySeriesPath,
  query: economySeriesQuery,
  response: economySeriesResponse,
  keywords: [
    "fred",
    "alfred",
    "macro",
    "cpi",
    "inflation",
    "jobs",
    "treasury yield",
    "vintage",
    "debt",
    "public debt",
    "national debt",
    "federal debt",
    "government debt",
  ],
} satisfies OperationContract;
