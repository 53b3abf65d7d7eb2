// GET /api/v1/screener/sp500: the S&P 500 members with their fundamentals (one held run of Yahoo Finance figures,
// data/screeners), filtered, sorted and paged. No live vendor: both kinds serve the held run, dated in the answer.
// Archived daily: the 50 largest members as the screen returned them.
import { sp500Holding } from "../../providers/sp500-constituents";
import { defineOperation } from "../operation";
import { contract, screenerQuery, type screenerResponse } from "./contract";
import { screenMembers, type ScreenerQuery } from "./screen-members";
import type { z } from "zod";

export const SECTOR_NOTE =
  "gics_sub_industry is the source's `Sector` column, which holds Wikipedia's GICS sub-industry (e.g. Semiconductors), not one of the 11 GICS sectors; the sectors are not held.";

export function getScreener(q: ScreenerQuery): z.output<typeof screenerResponse> {
  const h = sp500Holding();
  const page = screenMembers(h.members, q);
  return {
    source: h.origin,
    as_of: h.as_of,
    index: h.index,
    figures: `Yahoo Finance figures from one run of the source's daily job (${h.as_of}): ${h.as_of_meaning}.`,
    sector_note: SECTOR_NOTE,
    provenance: h.provenance,
    licence: h.licence,
    members: h.members.length,
    total: page.total,
    count: page.rows.length,
    offset: page.offset,
    next_offset: page.next_offset,
    sort: { by: q.sort, order: q.order },
    rows: page.rows.map((m) => ({ ...m })),
  };
}

const coverageSummary = (kind: string) => {
  const h = sp500Holding();
  const missing = h.members.filter((m) => m.price === null).length;
  return (
    `${h.members.length} ${h.index} members with Yahoo Finance figures from one run dated ${h.as_of} (${missing} members have no figures in it; ` +
    `a range filter leaves out members without that figure). Sub-industries are GICS sub-industries; the 11 GICS sectors are not held.` +
    (kind === "live" ? " No live vendor: MARKET_PROVIDER=live serves the same held run." : "")
  );
};

export const screener = defineOperation({
  contract,
  service: "screeners-scores-research",
  meter: { key: "screener", title: "S&P 500 screener", priceMicros: 20_000n },
  source: "yahoo_finance",
  goal: "screen S&P 500 stocks by P/E, dividend yield and market cap",
  example: () => ({ query: { max_pe: "20", min_dividend_yield: "0.02", sort: "dividend_yield", order: "desc", limit: "10" } }),
  coverage: (kind) => ({
    summary: coverageSummary(kind),
    entities: [{ name: "sp500", first_date: sp500Holding().as_of.slice(0, 10), last_date: sp500Holding().as_of.slice(0, 10) }],
  }),
  run: async ({ query }) => getScreener(query),
  feed: {
    description: "The 50 largest S&P 500 members by market cap, as GET /api/v1/screener/sp500 returned them",
    entities: ["sp500"],
    fetch: async () => getScreener(screenerQuery.parse({ limit: "50" })),
    summarize(p) {
      const r = p as { as_of: string; total: number; rows: { symbol: string; market_cap: number | null }[] };
      return { figures_as_of: r.as_of, members: r.total, largest: r.rows[0]?.symbol ?? null, largest_market_cap: r.rows[0]?.market_cap ?? null };
    },
  },
});
