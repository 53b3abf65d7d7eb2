// The screen itself, a pure function of the held members and the validated query: filters (text, sub-industry,
// ranges), a sort that puts members without a value last in either order (ties by symbol), then the page.
import type { z } from "zod";
import type { Sp500Member } from "../../providers/sp500-constituents";
import type { screenerQuery, SORT_COLUMNS } from "./contract";

export type ScreenerQuery = z.output<typeof screenerQuery>;
type SortColumn = (typeof SORT_COLUMNS)[number];

// Query range names -> member columns.
const RANGES = [
  ["market_cap", "market_cap"],
  ["pe", "pe_trailing"],
  ["dividend_yield", "dividend_yield"],
  ["price", "price"],
  ["eps", "eps_trailing"],
  ["price_to_book", "price_to_book"],
  ["price_to_sales", "price_to_sales"],
] as const;

function matches(m: Sp500Member, q: ScreenerQuery): boolean {
  if (q.search) {
    const s = q.search.toLowerCase();
    if (!m.symbol.toLowerCase().includes(s) && !m.name.toLowerCase().includes(s)) return false;
  }
  if (q.sub_industry && !m.gics_sub_industry.toLowerCase().includes(q.sub_industry.toLowerCase())) return false;
  for (const [param, col] of RANGES) {
    const min = q[`min_${param}`];
    const max = q[`max_${param}`];
    if (min === undefined && max === undefined) continue;
    const v = m[col];
    // A range asks about a figure: a member without it cannot be said to be in the range.
    if (v === null) return false;
    if (min !== undefined && v < min) return false;
    if (max !== undefined && v > max) return false;
  }
  return true;
}

function compare(a: Sp500Member, b: Sp500Member, by: SortColumn, order: "asc" | "desc"): number {
  const va = a[by];
  const vb = b[by];
  if (va === null || vb === null) return va === vb ? cmpSymbol(a, b) : va === null ? 1 : -1;
  const c = typeof va === "number" && typeof vb === "number" ? va - vb : String(va).localeCompare(String(vb));
  return (order === "asc" ? c : -c) || cmpSymbol(a, b);
}
const cmpSymbol = (a: Sp500Member, b: Sp500Member) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);

export function screenMembers(members: readonly Sp500Member[], q: ScreenerQuery) {
  const hits = members.filter((m) => matches(m, q)).sort((a, b) => compare(a, b, q.sort, q.order));
  const rows = hits.slice(q.offset, q.offset + q.limit);
  const next = q.offset + rows.length;
  return { total: hits.length, offset: q.offset, next_offset: next < hits.length ? next : null, rows };
}
