// One perps answer: the held contexts, filtered by symbols and kind, sorted (rows without the sort value last), with the
// computed columns labelled as such in the contract (APR, open interest in USD).
import type { z } from "zod";
import type { MarketProviders } from "../../providers/types";
import type { perpsQuery, perpsResponse } from "./contract";
import { perpContextsSource } from "./perp-contexts";

type Query = z.output<typeof perpsQuery>;
export type PerpsResponse = z.output<typeof perpsResponse>;
type Row = PerpsResponse["rows"][number];

// Six significant decimals are enough for any quantity here and remove float noise from the products.
const round = (x: number) => Math.round(x * 1e6) / 1e6;

export async function getPerps(q: Query, deps: { providers: MarketProviders }): Promise<PerpsResponse> {
  const held = await deps.providers.family(perpContextsSource).getContexts();
  const all: Row[] = held.contexts.map((c) => ({
    symbol: c.symbol,
    name: c.name,
    dex: c.dex,
    kind: c.dex === null ? "crypto" : "equity",
    mark_price: c.markPx,
    oracle_price: c.oraclePx,
    mid_price: c.midPx,
    funding_rate_hourly: c.funding,
    funding_apr_percent: c.funding === null ? null : round(c.funding * 24 * 365 * 100),
    premium: c.premium,
    open_interest: c.openInterest,
    open_interest_usd: c.openInterest === null || c.markPx === null ? null : round(c.openInterest * c.markPx),
    prev_day_price: c.prevDayPx,
    day_volume_usd: c.dayNtlVlm,
    day_volume_base: c.dayBaseVlm,
    max_leverage: c.maxLeverage,
    as_of: c.as_of,
  }));
  const wanted = q.symbols ? new Set(q.symbols.toUpperCase().split(",")) : null;
  const rows = all
    .filter((r) => q.kind === "all" || r.kind === q.kind)
    .filter((r) => !wanted || wanted.has(r.symbol.toUpperCase()) || wanted.has(r.name.toUpperCase()))
    .sort((a, b) => {
      if (q.sort === "symbol") return q.order === "asc" ? a.symbol.localeCompare(b.symbol) : b.symbol.localeCompare(a.symbol);
      const va = a[q.sort];
      const vb = b[q.sort];
      if (va === null || vb === null) return va === vb ? a.symbol.localeCompare(b.symbol) : va === null ? 1 : -1;
      return (q.order === "asc" ? va - vb : vb - va) || a.symbol.localeCompare(b.symbol);
    })
    .slice(0, q.limit);
  return {
    source: "hyperliquid",
    as_of: held.as_of,
    venue: "Hyperliquid",
    recorded: held.recordings !== null,
    recordings: held.recordings,
    note: held.recordings
      ? "Recorded replies of Hyperliquid's info API, one moment each (each row's as_of), not live data; set MARKET_PROVIDER=live for live data. funding_apr_percent and open_interest_usd are computed here."
      : "Live from Hyperliquid's info API. funding_apr_percent and open_interest_usd are computed here.",
    total_available: all.length,
    count: rows.length,
    rows,
  };
}
