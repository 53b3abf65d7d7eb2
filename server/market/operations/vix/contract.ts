// The VIX operation's contract: the CBOE Volatility Index's daily open, high, low and close between dates, with the days
// CBOE recorded only a close marked. Zod only.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const CBOE_SOURCE = "cboe" as const;

export const vixQuery = z.object({
  from: isoDate.optional().meta({ description: "First day (YYYY-MM-DD). Default: as far back as `limit` reaches." }),
  to: isoDate.optional().meta({ description: "Last day (YYYY-MM-DD). Default: the latest held." }),
  sort: z.enum(["desc", "asc"]).default("desc").meta({ description: "desc (newest first, default) or asc; `limit` keeps the first rows in this order." }),
  limit: queryInt(1, 10_000).default(30).meta({ description: "Days returned (1-10000, default 30)." }),
});

export const vixDay = z.object({
  date: z.string(),
  open: z.number().nullable().meta({ description: "Index points; null on a close-only day." }),
  high: z.number().nullable().meta({ description: "Index points; null on a close-only day." }),
  low: z.number().nullable().meta({ description: "Index points; null on a close-only day." }),
  close: z.number(),
  close_only: z.boolean().meta({ description: "CBOE published only a close that day (its open, high and low equal it): open, high and low are null." }),
  flags: z
    .array(z.string())
    .meta({ description: "Published values that contradict each other, served as published: open_outside_range, close_outside_range, high_below_low." }),
});

export const vixResponse = z.object({
  source: z.literal(CBOE_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When CBOE's file was retrieved (ISO 8601); null offline (the committed file's retrieval time is not known)." }),
  feedback: envelope.feedback,
  index: z.literal("VIX"),
  name: z.string(),
  unit: z.string(),
  notes: z.array(z.string()),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  count: z.number(),
  days: z.array(vixDay),
});

export const contract = {
  key: "vix",
  method: "GET",
  path: "/api/v1/sentiment/vix",
  upstreamPath: "/sentiment/vix",
  summary: "VIX daily open, high, low, close: the CBOE Volatility Index, the market's fear gauge (sentiment)",
  description:
    "The CBOE Volatility Index (VIX), the market's expectation of 30-day S&P 500 volatility and the usual gauge of fear in market " +
    "sentiment: daily open, high, low and close in index points between dates, with days CBOE recorded only a close marked and their " +
    "open, high and low null.",
  query: vixQuery,
  response: vixResponse,
  keywords: ["vix", "volatility", "fear", "gauge", "sentiment", "cboe", "implied", "index", "risk", "daily"],
} satisfies OperationContract;
