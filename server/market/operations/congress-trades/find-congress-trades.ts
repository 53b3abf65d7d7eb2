// Congressional trades: the source's rows as trades, filtered, sorted and paged. What the source does not hold (the
// House, a member who filed no report in it, a window outside its dates) is a 403 not_included naming what it holds.
import { AppError, invalidParameter } from "../../../errors";
import { SENATE_SOURCE } from "./contract";
import { tradeOf, type SenateRow, type Trade } from "./senate-rows";
import type { SenateTradesSource } from "./senate-source";

export type CongressTradesQuery = {
  member?: string;
  ticker?: string;
  chamber?: "senate" | "house";
  from?: string;
  to?: string;
  date_field: "transaction" | "disclosure";
  type?: "purchase" | "sale" | "sale_full" | "sale_partial" | "exchange";
  owner?: "self" | "spouse" | "joint" | "child";
  sort: "disclosure_date" | "transaction_date";
  order: "desc" | "asc";
  limit: number;
  offset: number;
};

export const ATTRIBUTION =
  "Senate Stock Watcher (senatestockwatcher.com), transcribed from the US Senate's Electronic Financial Disclosure site (efdsearch.senate.gov)";
const HOUSE_NOTE =
  "House reports are not held: the only public House dataset found is OCR-derived with faults its own notes list and no licence (data/congress/SOURCES.md), so chamber=house answers 403 not_included.";

const words = (s: string) => s.toLowerCase().replace(/[.,']/g, " ").split(/\s+/).filter(Boolean);

/** Whether `query` names `trade`'s member: a Bioguide ID, or every word a prefix of a different word of the name. */
export function namesMember(query: string, member: string, bioguide: string | null): boolean {
  if (/^[A-Z]\d{6}$/.test(query)) return bioguide === query;
  const name = words(member);
  return words(query).every((w) => {
    const i = name.findIndex((n) => n.startsWith(w));
    if (i < 0) return false;
    name.splice(i, 1);
    return true;
  });
}

const TYPES: Record<NonNullable<CongressTradesQuery["type"]>, (t: string) => boolean> = {
  purchase: (t) => t === "Purchase",
  sale: (t) => t.startsWith("Sale"),
  sale_full: (t) => t === "Sale (Full)",
  sale_partial: (t) => t === "Sale (Partial)",
  exchange: (t) => t === "Exchange",
};

// The rows as trades once per loaded set (the embedded rows live as long as the process, live ones an hour).
const converted = new WeakMap<SenateRow[], Trade[]>();
function tradesOf(rows: SenateRow[]): Trade[] {
  let trades = converted.get(rows);
  if (!trades) converted.set(rows, (trades = rows.map(tradeOf)));
  return trades;
}

const span = (dates: string[]) => ({
  first: dates.length ? dates.reduce((a, b) => (b < a ? b : a)) : null,
  last: dates.length ? dates.reduce((a, b) => (b > a ? b : a)) : null,
});
const sameSymbol = (a: string, b: string) => a.replace(".", "-") === b.replace(".", "-");

export async function findCongressTrades(q: CongressTradesQuery, source: SenateTradesSource) {
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", "from must be on or before to");
  if (q.chamber === "house") throw new AppError("not_included", { reason: "chamber_not_included", detail: HOUSE_NOTE, extra: { chambers: ["senate"] } });
  const { rows, retrievedAt, skipped } = await source.load();
  const all = tradesOf(rows);
  const coverage = {
    chambers: ["senate"],
    transaction_dates: span(all.map((t) => t.transaction_date)),
    disclosure_dates: span(all.map((t) => t.disclosure_date)),
    note: `${HOUSE_NOTE}${skipped ? ` ${skipped} transactions of the dataset have no valid date and are left out.` : ""}`,
  };
  const held = q.date_field === "transaction" ? coverage.transaction_dates : coverage.disclosure_dates;
  if (held.first && ((q.to && q.to < held.first) || (q.from && q.from > held.last!)))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `${q.date_field} dates ${q.from ?? "..."}..${q.to ?? "..."} are not held: ${held.first}..${held.last}`,
      extra: { coverage: { first_date: held.first, last_date: held.last } },
    });
  if (q.member && !all.some((t) => namesMember(q.member!, t.member, t.bioguide_id))) {
    const members = [...new Set(all.map((t) => t.member))].sort();
    throw new AppError("not_included", {
      reason: "member_not_included",
      detail: `no member matching "${q.member}" filed a report held here (${members.length} senators: ${members.join(", ")}); House members are not held`,
      extra: { member: q.member },
    });
  }
  const dateOf = (t: Trade) => (q.date_field === "transaction" ? t.transaction_date : t.disclosure_date);
  const key = (t: Trade) => (q.sort === "transaction_date" ? t.transaction_date : t.disclosure_date);
  const matching = all
    .map((t, i) => ({ t, i }))
    .filter(
      ({ t }) =>
        (!q.member || namesMember(q.member, t.member, t.bioguide_id)) &&
        (!q.ticker || t.tickers.some((s) => sameSymbol(s, q.ticker!))) &&
        (!q.from || dateOf(t) >= q.from) &&
        (!q.to || dateOf(t) <= q.to) &&
        (!q.type || TYPES[q.type](t.transaction_type)) &&
        (!q.owner || t.owner.toLowerCase() === q.owner),
    )
    .sort((a, b) => {
      const k = key(a.t).localeCompare(key(b.t)) || a.t.member.localeCompare(b.t.member) || a.i - b.i;
      return q.order === "asc" ? k : -k;
    })
    .map(({ t }) => t);
  const page = matching.slice(q.offset, q.offset + q.limit);
  return {
    source: SENATE_SOURCE,
    as_of: retrievedAt,
    attribution: ATTRIBUTION,
    total: matching.length,
    count: page.length,
    offset: q.offset,
    next_offset: q.offset + page.length < matching.length ? q.offset + page.length : null,
    coverage,
    trades: page,
  };
}
