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

/** The same month and day `years` calendar years later (earlier when negative); 29 February becomes 28 February in a common year. */
export function addCalendarYears(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) + years;
  const md = date.slice(5);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return `${String(y).padStart(4, "0")}-${md === "02-29" && !leap ? "02-28" : md}`;
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

// Whether 00:00 New York on a date is daylight time, by the US rules (Energy Policy Act of 2005 from 2007,
// the 1986 rules for 1987-2006); the switch happens at 02:00, so midnight of a switch day is still on the
// old offset. Other years are asked of Intl (the tz database) and cached.

/** Day of month of the n-th (1-based; n = -1 for the last) Sunday of `month` (1-12) in `year`. */
function nthSunday(year: number, month: number, n: number): number {
  if (n > 0) {
    const dow = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((7 - dow) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  return lastDay.getUTCDate() - lastDay.getUTCDay();
}

const dstWindows = new Map<number, [number, number] | null>();

function dstWindow(y: number): [number, number] | null {
  let w = dstWindows.get(y);
  if (w === undefined) {
    // As month x 100 + day: daylight time from the start day's 02:00 to the end day's 02:00.
    w = y >= 2007 ? [300 + nthSunday(y, 3, 2), 1100 + nthSunday(y, 11, 1)] : y >= 1987 ? [400 + nthSunday(y, 4, 1), 1000 + nthSunday(y, 10, -1)] : null;
    dstWindows.set(y, w);
  }
  return w;
}

function midnightIsDaylight(date: string): boolean | undefined {
  const w = dstWindow(Number(date.slice(0, 4)));
  if (!w) return undefined;
  const md = Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
  return md > w[0] && md <= w[1];
}

/** ISO timestamp of 00:00 New York on `date`, without building Date objects on the fast path. */
export function newYorkMidnightIso(date: string): string {
  const daylight = midnightIsDaylight(date);
  if (daylight !== undefined) return `${date}T0${daylight ? 4 : 5}:00:00.000Z`;
  return new Date(newYorkMidnightMs(date)).toISOString();
}

/** UTC epoch ms of 00:00 America/New_York on `date` (Polygon's daily bar timestamp). */
export function newYorkMidnightMs(date: string): number {
  const base = dateToUtcMs(date);
  const daylight = midnightIsDaylight(date);
  if (daylight !== undefined) return base + (daylight ? 4 : 5) * 3_600_000;
  const hit = midnightCache.get(date);
  if (hit !== undefined) return hit;
  // New York is UTC-5 or UTC-4: try both and keep the one that reads 00:00 there.
  let out = base + 5 * 3_600_000;
  for (const h of [4, 5]) {
    const c = newYorkClock(new Date(base + h * 3_600_000));
    if (c.date === date && c.hour === 0) {
      out = base + h * 3_600_000;
      break;
    }
  }
  if (midnightCache.size > 100_000) midnightCache.clear();
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
