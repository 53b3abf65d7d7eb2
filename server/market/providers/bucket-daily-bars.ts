// Polygon aggregate semantics over daily base bars: `multiplier` x `timespan` buckets in America/New_York
// time, each stamped 00:00 New York on its first calendar day; days without trades produce no bars.
//
// Whole buckets, as Polygon's knowledge base describes its aggregates ("How does Polygon treat hourly bars
// when querying regular trading hours?": `from` is snapped to the beginning of its timespan and `to` to the
// end, so that every bar is full):
// - the first bucket starts on the calendar start of the unit holding `from`: `from` itself for days, the
//   Sunday on or before it for weeks (Polygon weeks start on Sunday, New York time), the first day of its
//   month, quarter or year. That day is the anchor: buckets of `multiplier` units follow one another from it
//   (Polygon says nothing more about multi-unit buckets; counting them from the snapped `from` is what the
//   snapping implies, and it keeps a bucket's bars independent of anything but the request);
// - the last bucket runs to its own end even when `to` falls inside it.
// So `from=2014-06-04&timespan=week` opens with the session of Monday 2014-06-02, stamped Sunday 2014-06-01.
//
// `limit` caps the base (daily) bars read, in `sort` order (a desc query reads the most recent days), as
// Polygon's "Aggregate Data API Improvements" post (2020-11-25) describes; a bucket that the limit cuts
// short is not returned, as that post's example does with a partial hour bar.
//
// Prices are the base bars' own (first open, highest high, lowest low, last close) and volume their exact
// sum: nothing is rounded here.
import { newYorkMidnightIso } from "../lib/dates";
import type { DailyBar, PriceBar } from "./types";

export type DailyTimespan = "day" | "week" | "month" | "quarter" | "year";

type Base = DailyBar & { vwap?: number | null; tradeCount?: number | null };

// Integer calendar arithmetic (days since 1970-01-01, months since year 0): this runs once per base bar.
function epochDay(date: string): number {
  // Howard Hinnant's days_from_civil.
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function dayToDate(day: number): string {
  // Howard Hinnant's civil_from_days.
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${m < 10 ? "0" : ""}${m}-${d < 10 ? "0" : ""}${d}`;
}

function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

function monthStart(index: number): string {
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`;
}

/** Maps a base bar's date to its bucket key (an integer) and a bucket key to its first calendar day. */
function windowing(from: string, timespan: DailyTimespan, multiplier: number): { key: (date: string) => number; start: (key: number) => string } {
  if (timespan === "day" || timespan === "week") {
    const fromDay = epochDay(from);
    // 1970-01-01 was a Thursday: (day + 4) % 7 is the weekday with Sunday = 0.
    const anchor = timespan === "day" ? fromDay : fromDay - ((((fromDay + 4) % 7) + 7) % 7);
    const step = timespan === "day" ? multiplier : 7 * multiplier;
    return { key: (date) => Math.floor((epochDay(date) - anchor) / step), start: (k) => dayToDate(anchor + k * step) };
  }
  const fromIdx = monthIndex(from);
  const anchor = fromIdx - (timespan === "month" ? 0 : timespan === "quarter" ? fromIdx % 3 : fromIdx % 12);
  const step = (timespan === "month" ? 1 : timespan === "quarter" ? 3 : 12) * multiplier;
  return { key: (date) => Math.floor((monthIndex(date) - anchor) / step), start: (k) => monthStart(anchor + k * step) };
}

type BucketQuery = { from: string; to: string; timespan: DailyTimespan; multiplier: number };

/** The calendar days the buckets of a query cover: `from` snapped back to its bucket start, `to` out to its bucket end. */
export function bucketSpan(q: BucketQuery): { first: string; last: string } | null {
  if (q.from > q.to) return null;
  const w = windowing(q.from, q.timespan, q.multiplier);
  return { first: w.start(0), last: dayToDate(epochDay(w.start(w.key(q.to) + 1)) - 1) };
}

export function bucketDailyBars(daily: readonly Base[], q: BucketQuery & { limit: number; sort: "asc" | "desc" }): PriceBar[] {
  const span = bucketSpan(q);
  if (!span) return [];
  const w = windowing(q.from, q.timespan, q.multiplier);
  // Base bars of the whole buckets, in `sort` order, up to `limit`.
  const inSpan = daily.filter((b) => b.date >= span.first && b.date <= span.last);
  const ordered = q.sort === "desc" ? inSpan.reverse() : inSpan;
  let read = ordered.slice(0, q.limit);
  // The first base bar left unread names the bucket the limit cut short: drop that bucket's bars.
  const unread = ordered[q.limit];
  if (unread) {
    const cut = w.key(unread.date);
    read = read.filter((b) => w.key(b.date) !== cut);
  }
  const window = q.sort === "desc" ? read.reverse() : read;

  const out: PriceBar[] = [];
  let i = 0;
  while (i < window.length) {
    const k = w.key(window[i]!.date);
    const first = window[i]!;
    let high = first.high;
    let low = first.low;
    let volume = 0;
    let vwapSum = 0;
    let vwapKnown = true;
    let trades = 0;
    let tradesKnown = true;
    let last = first;
    for (; i < window.length; i++) {
      const b = window[i]!;
      if (b !== first && w.key(b.date) !== k) break;
      if (b.high > high) high = b.high;
      if (b.low < low) low = b.low;
      volume += b.volume;
      if (typeof b.vwap === "number") vwapSum += b.vwap * b.volume;
      else vwapKnown = false;
      if (typeof b.tradeCount === "number") trades += b.tradeCount;
      else tradesKnown = false;
      last = b;
    }
    out.push({
      open: first.open,
      high,
      low,
      close: last.close,
      volume,
      vwap: vwapKnown && volume > 0 ? vwapSum / volume : null,
      trade_count: tradesKnown ? trades : null,
      timestamp: newYorkMidnightIso(w.start(k)),
    });
  }
  return q.sort === "desc" ? out.reverse() : out;
}
