// The perpetual funding history's contract: hourly funding rates of one perp (Hyperliquid).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const perpFundingPath = z.object({
  symbol: z
    .string()
    .regex(/^([a-z][a-z0-9]{0,9}:)?[A-Z0-9]{1,15}$/, "must be a Hyperliquid perp symbol such as BTC or xyz:TSLA")
    .meta({ example: "xyz:TSLA", description: "Venue symbol: BTC, ETH (validator-run dex) or dex:NAME for a HIP-3 perp (xyz:TSLA)." }),
});

export const perpFundingQuery = z.object({
  start: isoDate.optional().meta({ description: "First UTC day (inclusive). Without it: the latest `limit` hours up to `end`." }),
  end: isoDate.optional().meta({ description: "Last UTC day (inclusive). Without it: up to the latest row held (offline) or now (live)." }),
  limit: queryInt(1, 500).default(500).meta({ description: "Most rows (one per hour). With `start`, the first ones from it; otherwise the last ones." }),
});

export const perpFundingResponse = z.object({
  ...envelope,
  symbol: z.string(),
  venue: z.literal("Hyperliquid"),
  interval: z.literal("1h").meta({ description: "Hyperliquid settles funding every hour." }),
  recorded: z.boolean().meta({ description: "true: a recorded reply (offline), not live data." }),
  provenance: z.string().nullable().meta({ description: "Who recorded the reply and when; null for live data." }),
  coverage: z.object({ first: z.string(), last: z.string(), rows: z.number() }).nullable().meta({ description: "The hours held offline; null live." }),
  count: z.number(),
  rows: z.array(
    z.object({
      time: z.string().meta({ description: "Funding time (ISO 8601, UTC), as the venue stamps it." }),
      funding_rate: z.number().meta({ description: "Hourly rate, a fraction (0.0000125 = 0.00125 % per hour)." }),
      funding_apr_percent: z.number().meta({ description: "Computed here: funding_rate x 24 x 365 x 100 (not compounded)." }),
      premium: z.number().nullable().meta({ description: "The venue's premium index sample for the hour." }),
    }),
  ),
  note: z.string(),
});

export const contract = {
  key: "perp_funding",
  method: "GET",
  path: "/api/v1/perps/{symbol}/funding",
  upstreamPath: "/perps/{symbol}/funding",
  summary: "Perpetual funding rate history, hourly (Hyperliquid)",
  description:
    "Hourly funding rates (and the premium sample) of one Hyperliquid perpetual between two dates, with each rate annualised. " +
    "Crypto perps (BTC, ETH) and the 24/7 US stock perps (xyz:TSLA, xyz:NVDA, ...).",
  pathParams: perpFundingPath,
  query: perpFundingQuery,
  response: perpFundingResponse,
  keywords: ["funding", "funding rate", "history", "perpetual", "perp", "hourly", "hyperliquid", "crypto", "carry", "premium"],
} satisfies OperationContract;
