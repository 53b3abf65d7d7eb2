// What an operation's contract is (the zod schemas that validate its requests and describe its response, with the text
// discovery states), and the free advisor operations' contracts. A data operation's contract lives in its own folder
// (server/market/operations/<operation>/contract.ts); the registry there pairs catalog operations with contracts.
import { z } from "zod";

export type OperationContract = {
  key: string;
  method: "GET" | "POST";
  /** Public path template on the storefront. */
  path: string;
  /** Path template on the service's upstream. */
  upstreamPath: string;
  summary: string;
  description: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  /** Words agents use for this operation that appear nowhere else (boost search). */
  keywords?: string[];
};

/**
 * A call's parameters as its contract parsed them (the gateway validates before any charge): the matched path
 * segments, decoded, and what `pathParams` and `query` gave. An upstream in the same process takes them as they are
 * instead of parsing the request again (server/market/upstream).
 */
export type ParsedParameters = { contract: OperationContract; pathParams: Record<string, string>; path: unknown; query: unknown };

export const advisorGuideQuery = z.object({
  goal: z.string().min(1).max(500).meta({ description: "The task, in plain words (URL-encoded).", example: "daily AAPL bars for 2017" }),
});
export const advisorQuoteBody = z.object({
  goal: z.string().min(1).max(500).meta({ description: "The task, in plain words.", example: "daily AAPL bars for 2017" }),
  budget_usd: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/)
    .optional()
    .meta({ description: "Known budget, decimal USD." }),
  requirements: z.array(z.string().max(200)).max(20).optional(),
});
export const advisorGuideResponse = z.object({
  goal: z.string(),
  recommendations: z.array(
    z.object({
      operation: z.string(),
      method: z.string(),
      path: z.string(),
      service: z.string(),
      summary: z.string(),
      price_usd: z.string(),
      meter: z.string().nullable(),
      score: z.number(),
    }),
  ),
  plans: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
  steps: z.array(z.string()),
  estimated_cost_usd: z.string().nullable(),
  note: z.string(),
});

/** The free advisor operations (not data operations: they are answered by this app, not an upstream). */
export const ADVISOR_CONTRACTS: Record<string, OperationContract> = {
  advisor_guide: {
    key: "advisor_guide",
    method: "GET",
    path: "/vendor/agent/guide",
    upstreamPath: "",
    summary: "Free guide: which operations and plans fit a goal",
    description: "Needs no wallet and costs nothing. POST to the same path is also accepted.",
    query: advisorGuideQuery,
    response: advisorGuideResponse,
    keywords: ["help", "advisor", "recommend", "free"],
  },
  advisor_quote: {
    key: "advisor_quote",
    method: "POST",
    path: "/vendor/agent/quote",
    upstreamPath: "",
    summary: "Free quote for a goal and budget ($0 wallet proof)",
    description:
      "Costs $0 but needs a wallet proof: x402 in `Payment-Signature`, or MPP as `Authorization: Payment`. Returns a guide; never executes a purchase.",
    body: advisorQuoteBody,
    response: advisorGuideResponse,
    keywords: ["quote", "budget", "advisor", "free"],
  },
};
