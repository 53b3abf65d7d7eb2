// What both kinds of the series source share: the request and answer types, the window (start, end, sort, limit) cut
// from observations held oldest first, and the notes an agent must read with an answer.
import type { z } from "zod";
import { AppError } from "../../../errors";
import { alternativeOf, SERIES_CAVEATS } from "../../providers/economy-catalog";
import type { economySeriesResponse } from "./contract";

export type SeriesRequest = { id: string; start?: string; end?: string; asOf?: string; limit: number; sort: "asc" | "desc" };
export type SeriesAnswer = Omit<z.output<typeof economySeriesResponse>, "feedback">;

/** An operation's own source (the ProviderFamily's product): one series' answer, embedded or live. */
export interface EconomySeriesSource {
  series(req: SeriesRequest): Promise<SeriesAnswer>;
}

/** The observations of the window, in the order asked, at most `limit`; `obs` oldest first. */
export function sliceWindow<T extends { date: string }>(obs: T[], req: SeriesRequest): { rows: T[]; has_more: boolean } {
  const inWindow = obs.filter((o) => (!req.start || o.date >= req.start) && (!req.end || o.date <= req.end));
  const ordered = req.sort === "desc" ? inWindow.reverse() : inWindow;
  return { rows: ordered.slice(0, req.limit), has_more: ordered.length > req.limit };
}

export const NULL_VALUES_NOTE = "A null value is a date FRED lists without a value (a market holiday for a daily series, a release that did not happen).";

/** The series' caveats that bear on these rows (SOURCES.md; some hold for the offline files only), and a note when a date has no value. */
export function seriesNotes(id: string, rows: { date: string; value: number | null }[], live = false): string[] {
  const caveats = (SERIES_CAVEATS[id] ?? []).filter((c) => !(live && c.offlineOnly) && (!c.date || rows.some((r) => r.date === c.date)));
  return [...caveats.map((c) => c.note), ...(rows.some((r) => r.value === null) ? [NULL_VALUES_NOTE] : [])];
}

/** The window asked lies wholly outside what is held: 403, nothing charged, with what is held and what to use instead. */
export function windowNotHeld(req: SeriesRequest, coverage: { first_date: string; last_date: string }, what: string): AppError {
  const alt = req.asOf ? undefined : alternativeOf(req.id);
  return new AppError("not_included", {
    reason: "timeframe_not_included",
    detail:
      `${req.id} observations from ${req.start ?? "the first"} to ${req.end ?? "the last"} are not included: ${what} holds ${coverage.first_date}..${coverage.last_date}` +
      (alt ? `. ${alt.note} Ask /api/v1/economy/series/${alt.alternative}.` : "."),
    extra: { series_id: req.id, coverage, ...(alt ? { alternative: { series_id: alt.alternative, note: alt.note } } : {}) },
  });
}
