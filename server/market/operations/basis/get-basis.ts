import { isUsMarketOpen } from "../../lib/dates";
import { MARKET_SOURCE, systemClock, type Clock } from "../../lib/envelope";
import { getMarketProviders } from "../../providers/get-market-providers";
import type { MarketProviders } from "../../providers/types";
import { BASIS_METHOD, basisRowFor, buildSections, orderBasisRows, readBasis, type BasisResponse } from "./compute-basis";
import { basisSources } from "./perps";

export async function getBasis(q: { limit: number; min_basis: number }, deps: { providers?: MarketProviders; now?: Clock } = {}): Promise<BasisResponse> {
  const providers = deps.providers ?? getMarketProviders();
  const now = (deps.now ?? systemClock)();
  const sources = providers.family(basisSources);
  const perps = await sources.perps.getPerps();
  const tickers = [...new Set(perps.contexts.map((c) => c.name))];
  const { quotes } = await sources.quotes.getQuotes(tickers);
  const all = orderBasisRows(perps.contexts.map((c) => basisRowFor(c, quotes.get(c.name))));
  // min_basis > 0 keeps only comparable rows at least that wide; 0 keeps everything.
  const filtered = q.min_basis > 0 ? all.filter((x) => x.comparable && Math.abs(x.basis_percent!) >= q.min_basis) : all;
  const rows = filtered.slice(0, q.limit);
  // Whether the US market was open when the perp data was taken (the embedded snapshot has its own time).
  const marketOpen = isUsMarketOpen(Number.isNaN(Date.parse(perps.as_of)) ? now : new Date(perps.as_of));
  return {
    source: MARKET_SOURCE,
    as_of: perps.as_of,
    venue_map: perps.venues,
    us_market_open: marketOpen,
    reading: readBasis(rows, marketOpen),
    method: BASIS_METHOD,
    count: rows.length,
    rows,
    sections: buildSections(rows),
    note: perps.note,
    provenance: perps.provenance,
    total_available: all.length,
  };
}
