// The console's date ranges: whole UTC days, inclusive, as a seller picks them (today, month to date, the last 7, 30 or
// 90 days, or from-to), and the previous period of the same length to compare against (month to date: the same days of
// the month before). A range that ends today is compared with
// the previous one up to the same time of day (today until 10:00 against yesterday until 10:00), so a day in progress
// is never set against a whole one.
import { z } from "zod";
import { consoleDayRange, firstIssue } from "../contracts/console";
import { AppError } from "../errors";

export const RANGE_PRESETS = ["today", "mtd", "7d", "30d", "90d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DAY_MS = 86_400_000;
/** The longest range a console query takes: a year and a day (a leap year plus one). */
export const MAX_RANGE_DAYS = 367;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

/** What the console sends: a preset, or `custom` with from and to. */
export const rangeInput = z.object({
  preset: z.enum([...RANGE_PRESETS, "custom"]).default("30d"),
  from: isoDay.optional(),
  to: isoDay.optional(),
});
export type RangeInput = z.input<typeof rangeInput>;

export type DayRange = {
  preset: RangePreset | "custom";
  /** First and last UTC day, inclusive. */
  from: string;
  to: string;
  days: number;
  /** [start, end): the rows of the range. */
  start: Date;
  end: Date;
  /** [prevStart, prevEnd): the previous period, the same length, cut at the same time of day when the range ends today. */
  prevStart: Date;
  prevEnd: Date;
  /** Chart buckets: hours for a single day, days otherwise. */
  bucket: "hour" | "day";
};

export const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

function parseDay(day: string, parameter: string): Date {
  const d = startOfDay(day);
  if (Number.isNaN(d.getTime()) || dayOf(d) !== day)
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: `${parameter} is not a calendar day`, extra: { parameter } });
  return d;
}

export function resolveRange(input: RangeInput = {}, now: Date = new Date()): DayRange {
  const { preset, from, to } = rangeInput.parse(input);
  const today = startOfDay(dayOf(now));
  let first: Date;
  let last: Date;
  if (preset === "custom") {
    if (!from || !to)
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: "a custom range needs from and to",
        extra: { parameter: from ? "to" : "from" },
      });
    first = parseDay(from, "from");
    last = parseDay(to, "to");
    const order = consoleDayRange.safeParse({ from, to });
    if (!order.success) throw new AppError("invalid_request", { reason: "invalid_parameter", detail: firstIssue(order)!, extra: { parameter: "to" } });
    if (last > today)
      throw new AppError("invalid_request", { reason: "invalid_parameter", detail: "to must not be after today (UTC)", extra: { parameter: "to" } });
  } else if (preset === "mtd") {
    last = today;
    first = startOfDay(`${dayOf(today).slice(0, 7)}-01`);
  } else {
    const n = preset === "today" ? 1 : Number(preset.slice(0, -1));
    last = today;
    first = new Date(today.getTime() - (n - 1) * DAY_MS);
  }
  const days = Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1;
  if (days > MAX_RANGE_DAYS)
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: `a range is at most ${MAX_RANGE_DAYS} days`, extra: { parameter: "from" } });
  const end = new Date(last.getTime() + DAY_MS);
  const cut = end > now ? now : end;
  const shift = days * DAY_MS;
  if (preset === "mtd") {
    // The month before, from its first day for as long as this month has run (at most the whole month before).
    const prevStart = startOfDay(`${dayOf(new Date(first.getTime() - DAY_MS)).slice(0, 7)}-01`);
    const prevEnd = new Date(Math.min(prevStart.getTime() + (cut.getTime() - first.getTime()), first.getTime()));
    return { preset, from: dayOf(first), to: dayOf(last), days, start: first, end, prevStart, prevEnd, bucket: days === 1 ? "hour" : "day" };
  }
  return {
    preset,
    from: dayOf(first),
    to: dayOf(last),
    days,
    start: first,
    end,
    prevStart: new Date(first.getTime() - shift),
    prevEnd: new Date(cut.getTime() - shift),
    bucket: days === 1 ? "hour" : "day",
  };
}

/** Every bucket label of a range, in order, so a chart shows the empty days (or hours) too. */
export function rangeBuckets(r: DayRange, now: Date = new Date()): string[] {
  const out: string[] = [];
  if (r.bucket === "hour") {
    const stop = Math.min(r.end.getTime(), now.getTime());
    for (let t = r.start.getTime(); t < Math.max(stop, r.start.getTime() + 3_600_000); t += 3_600_000) out.push(new Date(t).toISOString().slice(0, 13));
    return out;
  }
  for (let t = r.start.getTime(); t < r.end.getTime(); t += DAY_MS) out.push(dayOf(new Date(t)));
  return out;
}

/** Change against the previous period, in percent with one decimal, as a string; null when there was nothing before. */
export function percentChange(current: bigint, previous: bigint): string | null {
  if (previous === 0n) return null;
  // Tenths of a percent, rounded half away from zero, in integer arithmetic (amounts are micro-USD BigInts).
  const diff = (current - previous) * 2000n;
  const den = previous < 0n ? -previous : previous;
  const q = diff / den;
  const tenths = q >= 0n ? (q + 1n) / 2n : (q - 1n) / 2n;
  const sign = tenths > 0n ? "+" : tenths < 0n ? "-" : "";
  const abs = tenths < 0n ? -tenths : tenths;
  return `${sign}${abs / 10n}.${abs % 10n}`;
}

/** part / whole in percent, one decimal, rounded half away from zero (integer arithmetic). */
export function percentOf(part: bigint, whole: bigint): string {
  const q = (part * 2000n) / whole;
  const tenths = q >= 0n ? (q + 1n) / 2n : (q - 1n) / 2n;
  const abs = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? "-" : ""}${abs / 10n}.${abs % 10n}`;
}
