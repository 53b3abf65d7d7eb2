// The S&P 500 value score's contract: a score per member from percentile ranks of P/E, price to book and dividend yield.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, queryInt, queryNumber } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const valueScoreQuery = z.object({
  peer_group: z
    .enum(["index", "sub_industry"])
    .default("index")
    .meta({ description: "Rank each input within the whole index, or within the member's GICS sub-industry (ranked only with at least 5 usable peers)." }),
  search: z.string().min(1).max(60).optional().meta({ description: "Case-insensitive text found in the symbol or the company name." }),
  sub_industry: z.string().min(1).max(100).optional().meta({ description: "Case-insensitive text found in the member's GICS sub-industry as held." }),
  min_score: queryNumber({ min: 0, max: 100 }).optional().meta({ description: "Only members scoring at least this (0-100); unscored members are left out." }),
  order: z.enum(["desc", "asc"]).default("desc").meta({ description: "desc: cheapest first; asc: most expensive first. Unscored members come last." }),
  limit: queryInt(1, 100).default(25).meta({ description: "Rows per page (at most 100)." }),
  offset: queryInt(0, 1000).default(0).meta({ description: "Rows to skip (the answer's next_offset is the next page's)." }),
});

const metrics = (description: string) =>
  z.object({ pe: z.number().nullable(), price_to_book: z.number().nullable(), dividend_yield: z.number().nullable() }).meta({ description });

export const valueScoreRow = z.object({
  rank: z.number().nullable().meta({ description: "1 = highest score among the scored members of this answer's peer grouping (ties share a rank)." }),
  symbol: z.string(),
  name: z.string(),
  gics_sub_industry: z.string(),
  value_score: z.number().nullable().meta({ description: "0-100, higher is cheaper; null when fewer than 2 inputs could be ranked." }),
  components: metrics("Each input's percentile rank in the peer group (0-100, higher is cheaper); null when left out."),
  peers: metrics("How many peers had a usable value for each input (the n of its percentile)."),
  inputs: z
    .object({
      pe_trailing: z.number().nullable(),
      eps_trailing: z.number().nullable(),
      price_to_book: z.number().nullable(),
      dividend_yield: z.number().nullable().meta({ description: "A fraction: 0.0175 is 1.75 %." }),
    })
    .meta({ description: "The held figures the ranks were computed from." }),
  excluded_reason: z
    .string()
    .nullable()
    .meta({ description: "Why value_score is null: no_figures, too_few_inputs or peer_group_too_small; null when scored." }),
});

export const valueScoreResponse = z.object({
  ...envelope,
  as_of: envelope.as_of.meta({ description: "When the input figures were produced: the source job's run (its commit time)." }),
  index: z.string(),
  score: z.literal("value_score"),
  method: z.string().meta({ description: "How the score is computed, ties and missing values included." }),
  peer_group: z.enum(["index", "sub_industry"]),
  inputs: z.array(z.string()).meta({ description: "The figures the score uses." }),
  computed: z.literal(true).meta({ description: "The score and components are computed here from the held figures; they are not Yahoo's." }),
  provenance: z.string(),
  scored: z.number().meta({ description: "Members with a score in this peer grouping." }),
  total: z.number().meta({ description: "Members matching the filters." }),
  count: z.number(),
  offset: z.number(),
  next_offset: z.number().nullable(),
  rows: z.array(valueScoreRow),
});

export const contract = {
  key: "value_score",
  method: "GET",
  path: "/api/v1/scores/value",
  upstreamPath: "/scores/value",
  summary: "Value score of S&P 500 stocks from P/E, price to book and dividend yield percentiles",
  description:
    "A value score (0-100, higher is cheaper) for every S&P 500 member: the mean of its percentile ranks on trailing P/E, price to book " +
    "and dividend yield within the whole index or its GICS sub-industry, with each component, the peer counts and the inputs used. " +
    "The method (ties, missing and negative values) is written in every answer. A derived signal, computed from one held run of Yahoo Finance figures.",
  query: valueScoreQuery,
  response: valueScoreResponse,
  keywords: ["score", "value", "valuation", "factor", "percentile", "rank", "cheap", "p/e", "price to book", "dividend yield", "sp500", "signal"],
} satisfies OperationContract;
