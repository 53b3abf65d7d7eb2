// GET /api/v1/scores/value: a value score per S&P 500 member (score-value.ts: the method), over the held Yahoo Finance
// run (data/screeners). A derived signal, priced above the screener's raw rows. No live vendor: both kinds score the held
// run. Archived daily: the 25 highest scores in each peer grouping.
import type { z } from "zod";
import { sp500Holding } from "../../providers/sp500-constituents";
import { defineOperation } from "../operation";
import { contract, valueScoreQuery, type valueScoreResponse } from "./contract";
import { scoreValue, VALUE_SCORE_METHOD, type PeerGroup } from "./score-value";

type Query = z.output<typeof valueScoreQuery>;

export function getValueScores(q: Query): z.output<typeof valueScoreResponse> {
  const h = sp500Holding();
  const all = scoreValue(h.members, q.peer_group);
  const has = (v: string, s: string) => v.toLowerCase().includes(s.toLowerCase());
  const hits = all
    .filter((r) => !q.search || has(r.symbol, q.search) || has(r.name, q.search))
    .filter((r) => !q.sub_industry || has(r.gics_sub_industry, q.sub_industry))
    .filter((r) => q.min_score === undefined || (r.value_score !== null && r.value_score >= q.min_score))
    .sort((a, b) => {
      if (a.value_score === null || b.value_score === null)
        return a.value_score === b.value_score ? (a.symbol < b.symbol ? -1 : 1) : a.value_score === null ? 1 : -1;
      return (q.order === "desc" ? b.value_score - a.value_score : a.value_score - b.value_score) || (a.symbol < b.symbol ? -1 : 1);
    });
  const rows = hits.slice(q.offset, q.offset + q.limit);
  const next = q.offset + rows.length;
  return {
    source: h.origin,
    as_of: h.as_of,
    index: h.index,
    score: "value_score",
    method: VALUE_SCORE_METHOD,
    peer_group: q.peer_group,
    inputs: ["pe_trailing (eps_trailing when P/E is missing)", "price_to_book", "dividend_yield"],
    computed: true,
    provenance: `Computed here from ${h.provenance}`,
    scored: all.filter((r) => r.value_score !== null).length,
    total: hits.length,
    count: rows.length,
    offset: q.offset,
    next_offset: next < hits.length ? next : null,
    rows,
  };
}

const GROUPS: PeerGroup[] = ["index", "sub_industry"];

export const valueScore = defineOperation({
  contract,
  service: "screeners-scores-research",
  meter: { key: "value_score", title: "S&P 500 value score", priceMicros: 50_000n },
  source: "yahoo_finance",
  goal: "value score ranking cheap S&P 500 stocks by P/E, price to book and dividend yield percentiles",
  example: () => ({ query: { peer_group: "sub_industry", sub_industry: "bank", limit: "10" } }),
  coverage(kind) {
    const h = sp500Holding();
    const scored = scoreValue(h.members, "index").filter((r) => r.value_score !== null).length;
    return {
      summary:
        `Scores over ${h.members.length} ${h.index} members from one held run of Yahoo Finance figures dated ${h.as_of} ` +
        `(${scored} scored within the whole index; members without figures are not scored).` +
        (kind === "live" ? " No live vendor: MARKET_PROVIDER=live scores the same held run." : ""),
      entities: [{ name: "sp500", first_date: h.as_of.slice(0, 10), last_date: h.as_of.slice(0, 10) }],
    };
  },
  run: async ({ query }) => getValueScores(query),
  feed: {
    description: "The 25 highest value scores in each peer grouping, as GET /api/v1/scores/value returned them",
    entities: GROUPS,
    fetch: async (group) => getValueScores(valueScoreQuery.parse({ peer_group: group })),
    summarize(p) {
      const r = p as { as_of: string; scored: number; rows: { symbol: string; value_score: number | null }[] };
      return { figures_as_of: r.as_of, scored: r.scored, top: r.rows[0]?.symbol ?? null, top_score: r.rows[0]?.value_score ?? null };
    },
  },
});
