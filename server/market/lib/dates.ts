// Calendar helpers. Dates are YYYY-MM-DD strings (UTC calendar arithmetic); market time is America/New_York.

const DAY_MS = 86_400_000;

export function dateToUtcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function utcMsToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((dateToUtcMs(b) - dateToUtcMs(a)) / DAY_MS);
}

export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

const nyParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  weekday: "short",
});

export type NyClock = { date: string; hour: number; minute: number; weekday: string };

export function newYorkClock(at: Date): NyClock {
  const p = Object.fromEntries(nyParts.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute), weekday: String(p.weekday) };
}

const midnightCache = new Map<string, number>();

/** UTC epoch ms of 00:00 America/New_York on `date` (Polygon's daily bar timestamp). */
export function newYorkMidnightMs(date: string): number {
  const hit = midnightCache.get(date);
  if (hit !== undefined) return hit;
  // New York is UTC-5 or UTC-4: try both and keep the one that reads 00:00 there.
  const base = dateToUtcMs(date);
  let out = base + 5 * 3_600_000;
  for (const h of [4, 5]) {
    const c = newYorkClock(new Date(base + h * 3_600_000));
    if (c.date === date && c.hour === 0) {
      out = base + h * 3_600_000;
      break;
    }
  }
  if (midnightCache.size > 50_000) midnightCache.clear();
  midnightCache.set(date, out);
  return out;
}

/** NYSE regular session (09:30-16:00 New York, Monday to Friday). Exchange holidays are not modelled. */
export function isUsMarketOpen(at: Date): boolean {
  const c = newYorkClock(at);
  if (c.weekday === "Sat" || c.weekday === "Sun") return false;
  const minutes = c.hour * 60 + c.minute;
  return minutes >= 9 * 60 + 30 && minutes < 16 * 60;
}
