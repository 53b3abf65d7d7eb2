// A rate series in the direction asked: `quote` units per 1 `base`. One leg against the dollar is the Fed's figure
// (or its reciprocal); two non-dollar legs make a cross rate from their dollar rates on the same date. Only dates
// where every leg has a published rate get a row; every other date is listed in missing_dates, never filled.
import type { z } from "zod";
import { AppError, invalidParameter } from "../../../errors";
import { addDays } from "../../lib/dates";
import { FOREX_SOURCE, type Currency, type forexRatesResponse } from "./contract";
import { decimalRatio } from "./decimal-ratio";
import type { Direction, ForexSource, Held, LegSeries } from "./forex-source";

export type ForexRatesResponse = z.infer<typeof forexRatesResponse>;
type Frequency = "daily" | "monthly";
type Query = { base: Currency; quote: Currency; frequency?: Frequency; start?: string; end?: string; limit: number };

const DEFAULT_DAILY_DAYS = 30;
const MISSING_LISTED = 100;
const FREQUENCY_NOTE: Record<Frequency, string> = {
  daily: "H.10 noon buying rates in New York, business days (certified by the Federal Reserve Bank of New York for customs purposes).",
  monthly: "G.5 monthly averages of the daily noon buying rates; each row is dated the first day of its month.",
};

const pubText = (c: string, d: Direction) => (d === "USD_per_unit" ? `USD per ${c}` : `${c} per USD`);
const firstOfMonth = (d: string) => `${d.slice(0, 7)}-01`;
function monthsBefore(date: string, months: number): string {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  const t = y * 12 + (m - 1) - months;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, "0")}-01`;
}

function heldOf(source: ForexSource, f: Frequency, c: string): Held | "open" | null {
  return f === "daily" ? source.dailyHeld(c) : source.monthlyHeld(c);
}

/** The days every leg covers at `f` (null when one has none; "open" when all are live). */
function commonHeld(source: ForexSource, f: Frequency, legs: string[]): Held | "open" | null {
  const held = legs.map((c) => heldOf(source, f, c));
  if (held.some((h) => h === null)) return null;
  const fixed = held.filter((h): h is Held => h !== "open");
  if (fixed.length === 0) return "open";
  return {
    first: fixed
      .map((h) => h.first)
      .sort()
      .at(-1)!,
    last: fixed.map((h) => h.last).sort()[0]!,
  };
}

function overlaps(h: Held | "open", start?: string, end?: string): boolean {
  return h === "open" || ((end ?? h.last) >= h.first && (start ?? h.first) <= h.last);
}

function heldText(source: ForexSource, f: Frequency, legs: string[]): string {
  return legs
    .map((c) => {
      const h = heldOf(source, f, c);
      return `${c} ${f} ${h === null ? "none" : h === "open" ? "any date published" : `${h.first}..${h.last}`}`;
    })
    .join("; ");
}

export async function getForexRates(q: Query, source: ForexSource, now: Date): Promise<ForexRatesResponse> {
  if (q.base === q.quote) throw invalidParameter("quote", "quote must differ from base");
  const legs = [q.base, q.quote].filter((c) => c !== "USD");
  const daily = commonHeld(source, "daily", legs);
  const frequency: Frequency = q.frequency ?? (daily && overlaps(daily, q.start, q.end) ? "daily" : "monthly");
  const held = commonHeld(source, frequency, legs);
  if (!held)
    throw new AppError("not_included", {
      reason: "frequency_not_included",
      detail: `no ${frequency} rates held for ${legs.filter((c) => !heldOf(source, frequency, c)).join(" and ")} (${heldText(source, "daily", legs)}; ${heldText(source, "monthly", legs)})`,
      extra: { frequency },
    });
  let end = q.end ?? (held === "open" ? now.toISOString().slice(0, 10) : held.last);
  let start = q.start ?? (frequency === "daily" ? addDays(end, -DEFAULT_DAILY_DAYS) : monthsBefore(end, 11));
  if (frequency === "monthly") [start, end] = [firstOfMonth(start), end];
  if (start > end) throw invalidParameter("start", `start ${start} is after end ${end}`);
  if (!overlaps(held, start, end))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `${start}..${end} is outside the ${frequency} rates held (${heldText(source, frequency, legs)})${frequency === "daily" ? `; monthly: ${heldText(source, "monthly", legs)}` : ""}`,
      extra: { frequency },
    });

  const got = frequency === "daily" ? await source.daily(legs, start, end) : await source.monthly(legs, start, end);
  const combined = combine(q.base, q.quote, got.legs);
  if (combined.rates.length === 0)
    throw new AppError("not_included", {
      reason: "no_observations",
      detail: `no ${frequency} rate for ${q.base}/${q.quote} in ${start}..${end}${combined.missing.length ? ` (dates without a rate: ${combined.missing.slice(0, 10).join(", ")})` : ""}`,
    });
  const rates = combined.rates.slice(0, q.limit);
  const notes: string[] = [];
  if (got.note) notes.push(got.note);
  if (held !== "open" && start < held.first) notes.push(`Rates before ${held.first} are not held (${heldText(source, frequency, legs)}).`);
  if (held !== "open" && end > held.last) notes.push(`Rates after ${held.last} are not held (${heldText(source, frequency, legs)}).`);
  for (const l of got.legs.filter((l) => l.invertedBySource))
    notes.push(
      `${l.currency}: the Fed publishes USD per ${l.currency}; the monthly file holds round(1 / that, 4) (${l.currency} per USD, written by the source repository), so it is accurate to 4 decimals only.`,
    );
  if (rates.length < combined.rates.length) notes.push(`Truncated at limit=${q.limit}: the next row is dated ${combined.rates[q.limit]!.date}.`);
  return {
    source: FOREX_SOURCE,
    as_of: got.as_of,
    base: q.base,
    quote: q.quote,
    quote_convention: `${q.base}/${q.quote}: units of ${q.quote} per 1 ${q.base}`,
    frequency,
    frequency_note: FREQUENCY_NOTE[frequency],
    computed: combined.computed,
    method: combined.method,
    legs: got.legs.map((l) => ({
      currency: l.currency,
      series: l.series,
      published_quote: pubText(l.currency, l.invertedBySource ? "USD_per_unit" : l.direction),
      note: l.invertedBySource ? `held as ${l.currency} per USD, round(1 / published, 4), by the source file` : null,
    })),
    start,
    end,
    count: rates.length,
    truncated: rates.length < combined.rates.length,
    rates,
    missing_dates: { count: combined.missing.length, dates: combined.missing.slice(0, MISSING_LISTED) },
    notes,
  };
}

/** `quote` per `base` on each date every leg has a rate, with the method in words. */
export function combine(base: string, quote: string, legs: LegSeries[]) {
  // quote per base = perUsd(quote) / perUsd(base); a leg's held value is perUsd itself (units per USD) or its reciprocal.
  const num: LegSeries[] = [];
  const den: LegSeries[] = [];
  for (const l of legs) {
    const unitsPerUsd = l.direction === "units_per_USD";
    if (l.currency === quote) (unitsPerUsd ? num : den).push(l);
    else (unitsPerUsd ? den : num).push(l);
  }
  const label = (l: LegSeries) =>
    l.invertedBySource
      ? `(${l.currency} per USD, round(1 / ${l.series}, 4) as the source file holds it)`
      : `(${pubText(l.currency, l.direction)}, ${l.series})`;
  const asPublished = legs.length === 1 && den.length === 0 && !legs[0]!.invertedBySource;
  const formula = `${num.length ? num.map(label).join(" × ") : "1"}${den.length ? ` / ${den.map(label).join(" × ")}` : ""}`;
  const oursToCompute = legs.length > 1 || den.length > 0;
  const method = asPublished
    ? null
    : `${quote} per ${base} = ${formula}${legs.length > 1 ? ", both legs of the same date" : ""}` +
      (oursToCompute
        ? "; products exact, the quotient to 20 significant digits, nothing rounded further."
        : ": the value as the source file holds it, not a figure the Fed publishes.");

  const byDate = legs.map((l) => new Map(l.rows.map((r) => [r.date, r.value])));
  const dates = [...new Set(legs.flatMap((l) => l.rows.map((r) => r.date)))].sort();
  const rates: { date: string; rate: number }[] = [];
  const missing: string[] = [];
  for (const date of dates) {
    const values = byDate.map((m) => m.get(date) ?? null);
    if (values.some((v) => v === null)) {
      missing.push(date);
      continue;
    }
    const value = (l: LegSeries) => byDate[legs.indexOf(l)]!.get(date)!;
    const rate = decimalRatio(num.map(value), den.map(value));
    if (rate === null) missing.push(date);
    else rates.push({ date, rate });
  }
  return { rates, missing, computed: !asPublished, method };
}
