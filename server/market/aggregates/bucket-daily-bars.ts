// Polygon aggregate semantics over daily base bars: `multiplier` x `timespan` windows in America/New_York
// time, each stamped with its window start; `limit` caps the base bars read (in `sort` order, so a desc
// query with a limit reads the most recent days); days without trades produce no bars.
//
// Windows are aligned to the calendar unit containing `from`: day windows start at `from`, week windows
// on the Sunday on or before `from` (Polygon weeks start on Sunday), month/quarter/year windows on the
// first day of the unit. A window's timestamp is 00:00 New York on its first calendar day.
import { newYorkMidnightIso } from "../lib/dates";
import type { DailyBar, PriceBar } from "../providers/types";

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

/** Maps a base bar's date to its window key (an integer) and a window key to its first calendar day. */
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

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function bucketDailyBars(
  daily: readonly Base[],
  q: { from: string; to: string; timespan: DailyTimespan; multiplier: number; limit: number; sort: "asc" | "desc" },
): PriceBar[] {
  // Base bars of the window, read in `sort` order up to `limit`, then re-ordered oldest first to build windows.
  let window = daily.filter((b) => b.date >= q.from && b.date <= q.to);
  if (q.sort === "desc") window = window.slice().reverse();
  window = window.slice(0, q.limit);
  if (q.sort === "desc") window.reverse();

  const out: PriceBar[] = [];
  const w = windowing(q.from, q.timespan, q.multiplier);
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
      open: round(first.open),
      high: round(high),
      low: round(low),
      close: round(last.close),
      volume: round(volume),
      vwap: vwapKnown && volume > 0 ? round(vwapSum / volume) : null,
      trade_count: tradesKnown ? trades : null,
      timestamp: newYorkMidnightIso(w.start(k)),
    });
  }
  return q.sort === "desc" ? out.reverse() : out;
}
