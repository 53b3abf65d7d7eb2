// The basis operation's contract (SERVICE.md parts 2 and 4; the shapes the spec leaves open are docs/market-data.md's).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, queryInt, queryNumber } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const basisQuery = z.object({
  limit: queryInt(1, 500).default(100).meta({ description: "Maximum rows returned (widest dislocation first)." }),
  min_basis: queryNumber({ min: 0, max: 100 })
    .default(0)
    .meta({ description: "Only rows whose absolute basis_percent is at least this (percent). Non-comparable rows are dropped when > 0." }),
});

export const basisRow = z.object({
  ticker: z.string(),
  equity_price: z.number().nullable(),
  equity_prev_close: z.number().nullable(),
  equity_change_percent: z.number().nullable(),
  equity_as_of: z.string().nullable(),
  perp_symbol: z.string().nullable(),
  perp_mark: z.number().nullable(),
  perp_oracle: z.number().nullable(),
  perp_open_interest: z.number().nullable().meta({ description: "Open interest in contracts (one contract = one share), as the venue reports it." }),
  perp_day_volume_usd: z.number().nullable().meta({ description: "24h notional volume in USD." }),
  perp_funding_apr_percent: z.number().nullable().meta({ description: "Hourly funding rate x 24 x 365 x 100." }),
  basis_percent: z.number().nullable().meta({ description: "(perp_mark - equity_price) / equity_price x 100." }),
  basis_absolute: z.number().nullable().meta({ description: "perp_mark - equity_price, USD." }),
  basis_vs_prev_close_percent: z
    .number()
    .nullable()
    .meta({ description: "Perp mark against the previous official close: the implied overnight move while the US market is shut." }),
  direction: z.enum(["premium", "discount", "flat", "unknown"]).meta({ description: "flat within +/-0.05%; unknown when not comparable." }),
  comparable: z.boolean(),
  excluded_reason: z.string().nullable().meta({ description: "Why the row is not comparable: no_equity_quote or no_perp_mark; null when comparable." }),
});

export const basisResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  venue_map: z.record(z.string(), z.string()).meta({ description: "Perp venue (HIP-3 dex) to its display name." }),
  us_market_open: z.boolean().meta({ description: "Whether the NYSE regular session (09:30-16:00 New York, Mon-Fri) was open when the perp data was taken." }),
  reading: z.string(),
  method: z.string(),
  count: z.number(),
  rows: z.array(basisRow),
  sections: z
    .array(z.object({ title: z.string(), tickers: z.array(z.string()) }))
    .meta({ description: "Tickers of the returned rows grouped as premium, discount, flat and not_comparable." }),
  note: z.string().nullable().meta({ description: "Data provenance caveats (for example the embedded snapshot); null for live data." }),
  provenance: z
    .object({
      kind: z.string().meta({ description: "recorded: a recording of the venues' answers, not live data." }),
      source: z.string().meta({ description: "Where the recorded perp data and equity prices came from." }),
      as_of: z.string().meta({ description: "The moment the perp data describes (ISO 8601); each row's equity_as_of dates its equity price." }),
    })
    .nullable()
    .meta({ description: "Provenance of recorded data (the embedded snapshot); null for live data." }),
  total_available: z.number().meta({ description: "US stock perpetuals found before limit and min_basis." }),
});

export const contract = {
  key: "basis",
  method: "GET",
  path: "/api/v1/basis",
  upstreamPath: "/basis",
  summary: "Equity vs 24/7 perpetual basis for US stocks",
  description:
    "Every US stock that also trades as a 24/7 synthetic perpetual: official (delayed) price and previous close " +
    "against the perp mark and oracle, basis, funding APR, open interest and volume, widest dislocation first.",
  query: basisQuery,
  response: basisResponse,
  keywords: ["perpetual", "perp", "crypto", "funding", "premium", "discount", "overnight", "hyperliquid", "screener"],
} satisfies OperationContract;
