// How a console range is read: whole UTC days up to the seller's rolled-up day from the *_daily tables, the rest
// (today, usually) from the live tables. Shared by every query file of the console's aggregates.

export type Span = { start: Date; end: Date };

export const DAY_MS = 86_400_000;
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** Timestamps are `timestamp(3)` holding UTC wall time (as Prisma writes them): parameters are converted explicitly. */
export const utc = (d: Date) => d.toISOString();

/**
 * Where a span splits: whole days up to the rolled-up day come from the rollup, the rest from the live tables. A span
 * starts at midnight; its end may be a time of day (a previous period cut at the same time), which is live.
 */
export function splitSpan(span: Span, through: string | null): { days: [string, string] | null; live: Span | null } {
  const fullEnd = new Date(Math.floor(span.end.getTime() / DAY_MS) * DAY_MS);
  const rolledEnd = through ? new Date(dayStart(through).getTime() + DAY_MS) : span.start;
  const daysEnd = new Date(Math.max(span.start.getTime(), Math.min(fullEnd.getTime(), rolledEnd.getTime())));
  const days: [string, string] | null = daysEnd > span.start ? [dayOf(span.start), dayOf(new Date(daysEnd.getTime() - DAY_MS))] : null;
  const live = span.end > daysEnd ? { start: daysEnd, end: span.end } : null;
  return { days, live };
}

/** A range of whole UTC days as a span. */
export const daysSpan = (days: [string, string]): Span => ({ start: dayStart(days[0]), end: new Date(dayStart(days[1]).getTime() + DAY_MS) });
