// The value score: a pure function of the held S&P 500 members. The method is VALUE_SCORE_METHOD, written in every
// answer and in the README; this file is its only implementation.
import type { Sp500Member } from "../../providers/sp500-constituents";

export type PeerGroup = "index" | "sub_industry";
export type Metric = "pe" | "price_to_book" | "dividend_yield";

/** A sub-industry needs this many members with a usable value before a metric is ranked within it. */
export const MIN_SUB_INDUSTRY_PEERS = 5;
/** A score needs at least this many of the three components. */
export const MIN_COMPONENTS = 2;

export const VALUE_SCORE_METHOD =
  "value_score = mean of the member's available percentile ranks (0 = most expensive, 100 = cheapest) on three inputs, " +
  "rounded to 2 decimals, when at least 2 of the 3 are available (else null): trailing P/E (lower is cheaper), price to book " +
  "(lower is cheaper) and dividend yield (higher is cheaper). Each rank is taken within the peer group (`index`: every member " +
  "with figures; `sub_industry`: the members of its GICS sub-industry, ranked only when at least 5 of them have a usable value, " +
  "else that component is null with reason peer_group_too_small). Percentile = 100 x (peers ranking below + half the other " +
  "members tied with it) / (peers - 1), so ties share the average rank. Missing and invalid values: no P/E with trailing EPS <= 0 " +
  "(a loss) ranks as the most expensive (P/E treated as +infinity, tied with other losses); price to book <= 0 (negative book " +
  "value) ranks as the most expensive the same way; no dividend yield reported ranks as the lowest yield (tied, as a non-payer); " +
  "no P/E and no EPS, or no price to book, leaves that component out. Members with no figures at all are not scored. " +
  "Inputs are Yahoo Finance figures from one held run (as_of); the inputs used are in each row.";

type Key = number; // ordered so that a higher key is cheaper
const INF = Number.POSITIVE_INFINITY;

/** The member's ranking key on a metric (higher = cheaper), or null when the metric is left out for it. */
export function rankKey(m: Sp500Member, metric: Metric): Key | null {
  if (metric === "pe") {
    if (m.pe_trailing !== null && m.pe_trailing > 0) return -m.pe_trailing;
    if (m.eps_trailing !== null && m.eps_trailing <= 0) return -INF;
    return null;
  }
  if (metric === "price_to_book") {
    if (m.price_to_book === null) return null;
    return m.price_to_book > 0 ? -m.price_to_book : -INF;
  }
  return m.dividend_yield ?? -INF;
}

/** Percentile rank of `k` among `keys` (which include it): 100 x (below + (tied - 1) / 2) / (n - 1); null when n < 2. */
export function percentile(k: Key, keys: readonly Key[]): number | null {
  if (keys.length < 2) return null;
  let below = 0;
  let tied = 0;
  for (const x of keys) {
    if (x < k) below++;
    else if (x === k) tied++;
  }
  return (100 * (below + (tied - 1) / 2)) / (keys.length - 1);
}

export type ValueScoreRow = {
  symbol: string;
  name: string;
  gics_sub_industry: string;
  value_score: number | null;
  rank: number | null;
  components: Record<Metric, number | null>;
  peers: Record<Metric, number>;
  inputs: { pe_trailing: number | null; eps_trailing: number | null; price_to_book: number | null; dividend_yield: number | null };
  excluded_reason: string | null;
};

const METRICS: Metric[] = ["pe", "price_to_book", "dividend_yield"];
const r2 = (n: number) => Math.round(n * 100) / 100;

/** Every member scored within `group`, in the members' order; rank 1 is the highest score (ties share a rank). */
export function scoreValue(members: readonly Sp500Member[], group: PeerGroup): ValueScoreRow[] {
  const groupOf = (m: Sp500Member) => (group === "index" ? "" : m.gics_sub_industry);
  // Each peer group's usable keys per metric, computed once.
  const keys = new Map<string, Record<Metric, number[]>>();
  for (const m of members) {
    if (m.price === null) continue;
    const g = keys.get(groupOf(m)) ?? { pe: [], price_to_book: [], dividend_yield: [] };
    keys.set(groupOf(m), g);
    for (const metric of METRICS) {
      const k = rankKey(m, metric);
      if (k !== null) g[metric].push(k);
    }
  }
  const rows = members.map((m): ValueScoreRow => {
    const inputs = { pe_trailing: m.pe_trailing, eps_trailing: m.eps_trailing, price_to_book: m.price_to_book, dividend_yield: m.dividend_yield };
    const base = { symbol: m.symbol, name: m.name, gics_sub_industry: m.gics_sub_industry, inputs, rank: null };
    const components: Record<Metric, number | null> = { pe: null, price_to_book: null, dividend_yield: null };
    if (m.price === null)
      return { ...base, value_score: null, components, peers: { pe: 0, price_to_book: 0, dividend_yield: 0 }, excluded_reason: "no_figures" };
    const g = keys.get(groupOf(m))!;
    const exact: number[] = [];
    let small = false;
    for (const metric of METRICS) {
      const k = rankKey(m, metric);
      if (k === null) continue;
      if (group === "sub_industry" && g[metric].length < MIN_SUB_INDUSTRY_PEERS) {
        small = true;
        continue;
      }
      const p = percentile(k, g[metric]);
      if (p === null) continue;
      exact.push(p);
      components[metric] = r2(p);
    }
    // The score averages the unrounded ranks; only what is shown is rounded.
    const score = exact.length >= MIN_COMPONENTS ? r2(exact.reduce((s, x) => s + x, 0) / exact.length) : null;
    const peers = { pe: g.pe.length, price_to_book: g.price_to_book.length, dividend_yield: g.dividend_yield.length };
    return { ...base, value_score: score, components, peers, excluded_reason: score !== null ? null : small ? "peer_group_too_small" : "too_few_inputs" };
  });
  // Competition ranking: equal scores share a rank, the next rank skips (1, 2, 2, 4).
  const ranked = rows.filter((r) => r.value_score !== null).sort((a, b) => b.value_score! - a.value_score!);
  ranked.forEach((r, i) => (r.rank = i > 0 && ranked[i - 1]!.value_score === r.value_score ? ranked[i - 1]!.rank : i + 1));
  return rows;
}
