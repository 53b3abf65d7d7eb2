// Polygon aggregate semantics over daily base bars: `multiplier` x `timespan` windows in America/New_York
// time, each stamped with its window start; `limit` caps the base bars read (in `sort` order, so a desc
// query with a limit reads the most recent days); days without trades produce no bars.
//
// Windows are aligned to the calendar unit containing `from`: day windows start at `from`, week windows
// on the Sunday on or before `from` (Polygon weeks start on Sunday), month/quarter/year windows on the
// first day of the unit. A window's timestamp is 00:00 New York on its first calendar day.
import { addDays, daysBetween, newYorkMidnightMs } from "../lib/dates";
import type { DailyBar, PriceBar } from "../providers/types";

export type DailyTimespan = "day" | "week" | "month" | "quarter" | "year";

type Base = DailyBar & { vwap?: number | null; tradeCount?: number | null };

function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

function monthStart(index: number): string {
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`;
}

function bucketStart(date: string, from: string, timespan: DailyTimespan, multiplier: number): string {
  if (timespan === "day") return addDays(from, Math.floor(daysBetween(from, date) / multiplier) * multiplier);
  if (timespan === "week") {
    const dow = new Date(`${from}T00:00:00Z`).getUTCDay(); // 0 = Sunday
    const anchor = addDays(from, -dow);
    return addDays(anchor, Math.floor(daysBetween(anchor, date) / (7 * multiplier)) * 7 * multiplier);
  }
  const unit = timespan === "month" ? 1 : timespan === "quarter" ? 3 : 12;
  const fromIdx = monthIndex(from);
  const anchor = fromIdx - (timespan === "month" ? 0 : timespan === "quarter" ? fromIdx % 3 : fromIdx % 12);
  const step = unit * multiplier;
  return monthStart(anchor + Math.floor((monthIndex(date) - anchor) / step) * step);
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
  let cur: { start: string; bars: Base[] } | undefined;
  const flush = () => {
    if (!cur) return;
    const bs = cur.bars;
    const volume = bs.reduce((s, b) => s + b.volume, 0);
    const vwapKnown = bs.every((b) => typeof b.vwap === "number");
    const countKnown = bs.every((b) => typeof b.tradeCount === "number");
    out.push({
      open: round(bs[0]!.open),
      high: round(Math.max(...bs.map((b) => b.high))),
      low: round(Math.min(...bs.map((b) => b.low))),
      close: round(bs[bs.length - 1]!.close),
      volume: round(volume),
      vwap: vwapKnown && volume > 0 ? round(bs.reduce((s, b) => s + (b.vwap as number) * b.volume, 0) / volume) : null,
      trade_count: countKnown ? bs.reduce((s, b) => s + (b.tradeCount as number), 0) : null,
      timestamp: new Date(newYorkMidnightMs(cur.start)).toISOString(),
    });
  };
  for (const b of window) {
    const start = bucketStart(b.date, q.from, q.timespan, q.multiplier);
    if (!cur || cur.start !== start) {
      flush();
      cur = { start, bars: [] };
    }
    cur.bars.push(b);
  }
  flush();
  return q.sort === "desc" ? out.reverse() : out;
}
