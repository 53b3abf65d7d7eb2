// The sector breadth operation's contract: the percent of the 11 Select Sector SPDR ETFs closing above their own
// moving average, per day, a market-sentiment measure computed here with its method in the answer. Zod only.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const sectorBreadthQuery = z.object({
  window: queryInt(20, 250).default(200).meta({ description: "Moving-average length in trading days (20-250, default 200)." }),
  from: isoDate.optional().meta({ description: "First day (YYYY-MM-DD)." }),
  to: isoDate.optional().meta({ description: "Last day (YYYY-MM-DD). Default: the latest close held." }),
  sort: z.enum(["desc", "asc"]).default("desc").meta({ description: "desc (newest first, default) or asc; `limit` keeps the first days in this order." }),
  limit: queryInt(1, 1_000).default(30).meta({ description: "Days returned (1-1000, default 30)." }),
});

export const breadthDay = z.object({
  date: z.string(),
  percent_above: z.number().nullable().meta({ description: "Percent of the members with an average that closed above it; null when none has one yet." }),
  above: z.array(z.string()).meta({ description: "The members above their average that day." }),
  members_with_average: z.number().meta({ description: "Members with `window` closes up to that day (the denominator)." }),
});

export const sectorBreadthResponse = z.object({
  source: envelope.source,
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When the input closes were retrieved (ISO 8601); null offline (the committed files' retrieval time is not known exactly)." }),
  feedback: envelope.feedback,
  measure: z.literal("percent_above_sma"),
  computed: z.literal(true).meta({ description: "Computed by this storefront from the closes in `inputs`, not published by a vendor." }),
  window: z.number(),
  method: z.string(),
  inputs: z.object({ source: z.string(), basis: z.string() }),
  members: z.array(z.object({ ticker: z.string(), sector: z.string(), first_date: z.string().nullable(), last_date: z.string().nullable() })),
  first_reading_date: z.string().nullable().meta({ description: "The first day with a reading for this window among the closes read." }),
  count: z.number(),
  days: z.array(breadthDay),
});

export const contract = {
  key: "sector_breadth",
  method: "GET",
  path: "/api/v1/sentiment/sector-breadth",
  upstreamPath: "/sentiment/sector-breadth",
  summary: "Market breadth: percent of the 11 S&P 500 sector ETFs above their 200-day moving average (computed, method included)",
  description:
    "A market-sentiment breadth measure computed from daily closes: for each trading day, the percent of the 11 Select Sector SPDR " +
    "ETFs (XLB, XLC, XLE, XLF, XLI, XLK, XLP, XLRE, XLU, XLV, XLY) closing above their own simple moving average (200 days by " +
    "default), with the members above, the method and the inputs' adjustment basis written in the answer.",
  query: sectorBreadthQuery,
  response: sectorBreadthResponse,
  keywords: ["breadth", "sentiment", "sector", "sectors", "spdr", "etf", "moving average", "200-day", "sma", "trend", "risk-on", "participation"],
} satisfies OperationContract;
