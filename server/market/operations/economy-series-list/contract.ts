// The economic series listing's contract: the series this storefront offers, searchable, free. Zod only (and the shared
// pieces in server/contracts), like every operation's contract.ts.
import { z } from "zod";
import { envelope } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

const AGENCIES = ["federal_reserve", "bls", "bea", "us_treasury"] as const;

export const economySeriesListQuery = z.object({
  q: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "Words to look for in a series' id, title and common names (cpi, fed funds, 10-year, payrolls, debt); every word must match." }),
  source: z.enum(AGENCIES).optional().meta({ description: "Only the series this agency publishes." }),
});

const span = z.object({ first: z.string(), last: z.string() });

export const listedSeries = z.object({
  series_id: z.string(),
  title: z.string(),
  units: z.string(),
  frequency: z.string(),
  seasonal_adjustment: z.string(),
  source: z.enum(AGENCIES).meta({ description: "The agency that produces the numbers; FRED distributes them." }),
  publisher: z.string(),
  release: z.string(),
  path: z.string().meta({ description: "Its observations: GET this path (priced; see /manifest.json)." }),
  coverage: z.object({
    offline: z.object({
      first_date: z.string(),
      last_date: z.string(),
      observations: z.number().meta({ description: "Dates held, with or without a value." }),
      retrieved: z.string().meta({ description: "The day the held snapshot was downloaded from FRED." }),
    }),
    live: z.object({ distributor: z.string(), note: z.string() }),
  }),
  vintages: z.object({
    held: z.boolean().meta({ description: "Whether as_of (values as known on a past date) answers offline." }),
    offline: z
      .object({
        alfred_window: span.extend({ vintages: z.number(), observations: span }).nullable(),
        snapshots: z.array(z.string()),
      })
      .nullable(),
    live: z.string(),
  }),
  notes: z.array(z.string()),
});

export const economySeriesListResponse = z.object({
  source: z.literal("fred").meta({ description: "The distributor of every series listed (each names its publishing agency)." }),
  as_of: z.string().nullable().meta({ description: "null: a listing of what is offered, not data of one moment." }),
  feedback: envelope.feedback,
  q: z.string().nullable(),
  count: z.number(),
  offered: z.string().meta({ description: "What answers beyond this list (live: any FRED series id)." }),
  series: z.array(listedSeries),
});

export const contract = {
  key: "economy_series_list",
  method: "GET",
  path: "/api/v1/economy/series",
  upstreamPath: "/economy/series",
  summary: "List and search the economic series offered (free)",
  description:
    "Every economic series GET /api/v1/economy/series/{series_id} sells here, free: id, title, units, frequency, seasonal " +
    "adjustment, publishing agency, the dates held offline and what answers live, and whether point-in-time vintages (as_of) are held.",
  query: economySeriesListQuery,
  response: economySeriesListResponse,
  keywords: ["list", "search", "catalog", "series", "fred", "free", "coverage"],
} satisfies OperationContract;
