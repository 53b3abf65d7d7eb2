// VIX days between dates as CBOE published them, with two things an agent must not misread marked:
// - close-only days: a row whose open, high and low all equal its close carries no intraday range (CBOE recorded only a
//   close, or repeated the previous one on a day the market was shut); open, high and low are null there, never the
//   copied close presented as a high or a low;
// - contradictory rows (an open or close outside the day's high-low range, a high below the low), as CBOE's file has a
//   few: served as published, flagged.
import { AppError, invalidParameter } from "../../../errors";
import { CBOE_SOURCE } from "./contract";
import type { VixRow, VixSource } from "./cboe-vix-source";

export type VixQuery = { from?: string; to?: string; sort: "asc" | "desc"; limit: number };

export const isCloseOnly = (r: VixRow) => r.open === r.close && r.high === r.close && r.low === r.close;

export function flagsOf(r: VixRow): string[] {
  const flags: string[] = [];
  if (r.high < r.low) flags.push("high_below_low");
  if (r.open > r.high || r.open < r.low) flags.push("open_outside_range");
  if (r.close > r.high || r.close < r.low) flags.push("close_outside_range");
  return flags;
}

export function vixDayOf(r: VixRow) {
  const closeOnly = isCloseOnly(r);
  return {
    date: r.date,
    open: closeOnly ? null : r.open,
    high: closeOnly ? null : r.high,
    low: closeOnly ? null : r.low,
    close: r.close,
    close_only: closeOnly,
    flags: closeOnly ? [] : flagsOf(r),
  };
}

/** What the data says about itself, for the answer and the coverage: the close-only and the contradictory days. */
export function vixQuirks(rows: VixRow[]): { closeOnly: string[]; flagged: string[] } {
  return { closeOnly: rows.filter(isCloseOnly).map((r) => r.date), flagged: rows.filter((r) => !isCloseOnly(r) && flagsOf(r).length).map((r) => r.date) };
}

const list = (dates: string[]) => (dates.length > 8 ? `${dates.slice(0, 8).join(", ")} and ${dates.length - 8} more` : dates.join(", ") || "none");

export async function getVix(q: VixQuery, source: VixSource) {
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", "from must be on or before to");
  const { rows, retrievedAt } = await source.load();
  const first = rows[0]?.date;
  const last = rows.at(-1)?.date;
  if (first && last && ((q.to && q.to < first) || (q.from && q.from > last)))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `VIX days ${q.from ?? "..."}..${q.to ?? "..."} are not held: ${first}..${last}`,
      extra: { coverage: { first_date: first, last_date: last } },
    });
  const inWindow = rows.filter((r) => (!q.from || r.date >= q.from) && (!q.to || r.date <= q.to));
  const ordered = q.sort === "desc" ? [...inWindow].reverse() : inWindow;
  const days = ordered.slice(0, q.limit).map(vixDayOf);
  const quirks = vixQuirks(rows);
  return {
    source: CBOE_SOURCE,
    as_of: retrievedAt,
    index: "VIX" as const,
    name: "Cboe Volatility Index",
    unit: "index points",
    notes: [
      `Close-only days (open, high and low equal to the close as CBOE published them) are served with open, high and low null and close_only true; in the history read: ${list(quirks.closeOnly)}.`,
      `Days whose published open or close lies outside the published high-low range are served as published and flagged; in the history read: ${list(quirks.flagged)}.`,
      "No rows on US market holidays. The index is not tradable and has no volume. VIX is a trademark of Cboe Global Markets.",
    ],
    first_date: days.length ? days.map((d) => d.date).reduce((a, b) => (b < a ? b : a)) : null,
    last_date: days.length ? days.map((d) => d.date).reduce((a, b) => (b > a ? b : a)) : null,
    count: days.length,
    days,
  };
}
