// The perpetuals' contexts contract: funding rate, open interest, mark and oracle per perpetual (Hyperliquid).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const perpsQuery = z.object({
  symbols: z
    .string()
    .regex(/^[A-Za-z0-9:]{1,20}(,[A-Za-z0-9:]{1,20}){0,49}$/, "must be up to 50 comma-separated symbols such as BTC,ETH,xyz:TSLA")
    .optional()
    .meta({ description: "Comma-separated perps by venue symbol (xyz:TSLA, BTC) or bare name (TSLA), case-insensitive. Without it: every perp held." }),
  kind: z
    .enum(["all", "crypto", "equity"])
    .default("all")
    .meta({ description: "crypto: the validator-run dex (BTC, ETH, ...); equity: US stock perps on HIP-3 dexes." }),
  sort: z.enum(["day_volume_usd", "open_interest_usd", "funding_rate_hourly", "symbol"]).default("day_volume_usd"),
  order: z.enum(["desc", "asc"]).default("desc"),
  limit: queryInt(1, 500).default(100).meta({ description: "Most rows returned." }),
});

const n = (description: string) => z.number().nullable().meta({ description });

export const perpRow = z.object({
  symbol: z.string().meta({ description: "Venue symbol: xyz:TSLA on a HIP-3 dex, BTC on the validator-run dex." }),
  name: z.string(),
  dex: z.string().nullable().meta({ description: "HIP-3 dex; null for the validator-run dex." }),
  kind: z.enum(["crypto", "equity"]),
  mark_price: n("USD (USDC)."),
  oracle_price: n("The venue's oracle (index) price."),
  mid_price: n("Order book mid."),
  funding_rate_hourly: n("Current hourly funding rate, a fraction (Hyperliquid settles every hour)."),
  funding_apr_percent: n("Computed here: funding_rate_hourly x 24 x 365 x 100 (not compounded)."),
  premium: n("The venue's premium index sample."),
  open_interest: n("In coins or shares of the underlying, not dollars."),
  open_interest_usd: n("Computed here: open_interest x mark_price."),
  prev_day_price: n("Price 24 hours earlier."),
  day_volume_usd: n("24-hour notional volume (USDC), as the venue reports it."),
  day_volume_base: n("24-hour volume in the underlying's units."),
  max_leverage: n("Maximum leverage the venue allows."),
  as_of: z.string().meta({ description: "The moment this row's data describes." }),
});

export const perpsResponse = z.object({
  ...envelope,
  venue: z.literal("Hyperliquid"),
  recorded: z.boolean().meta({ description: "true: recorded replies of one moment each (offline), not live data." }),
  recordings: z
    .array(z.object({ dex: z.string().nullable(), recorded_at: z.string(), source: z.string() }))
    .nullable()
    .meta({ description: "Each recording served, its moment and who recorded it; null for live data." }),
  note: z.string(),
  total_available: z.number().meta({ description: "Perps held before symbols, kind and limit." }),
  count: z.number(),
  rows: z.array(perpRow),
});

export const contract = {
  key: "perps",
  method: "GET",
  path: "/api/v1/perps",
  upstreamPath: "/perps",
  summary: "Perpetual futures funding rate, open interest, mark and oracle prices (Hyperliquid)",
  description:
    "Current funding rate (hourly and annualised), open interest (in units and USD), mark, oracle and mid prices, premium and 24-hour " +
    "volume of perpetual futures on Hyperliquid: crypto perps (BTC, ETH, ...) and the 24/7 US stock perps (xyz:TSLA, xyz:NVDA, ...). " +
    "Filter by symbols and kind, sort by volume, open interest or funding. Funding history: /api/v1/perps/{symbol}/funding.",
  query: perpsQuery,
  response: perpsResponse,
  keywords: [
    "perpetual",
    "perpetual futures",
    "perpetual swaps",
    "perp",
    "perps",
    "funding",
    "funding rate",
    "open interest",
    "mark price",
    "oracle",
    "hyperliquid",
    "crypto",
    "bitcoin",
    "ethereum",
    "derivatives",
  ],
} satisfies OperationContract;
