// The series source offline: the committed FRED files (data/economy/, read through the shared economy catalog). The
// latest values are each series' snapshot; `as_of` is answered only from a vintage held for that day (ALFRED's window,
// or a dated snapshot on its own day), never from today's values. What is not held is a 403 `not_included` naming what
// is, so nobody pays to learn it (the gateway charges nothing on a 4xx).
import { AppError } from "../../../errors";
import { findHeldSeries, heldObservations, heldSeries, vintageAsOf, vintagesHeld, type HeldSeries, type Vintage } from "../../providers/economy-catalog";
import { seriesNotes, sliceWindow, windowNotHeld, type EconomySeriesSource, type SeriesAnswer, type SeriesRequest } from "./series-answer";

const ALFRED_PUBLISHED =
  "published is ALFRED's realtime_start: the first vintage of its real-time window (held whole, 2019-07-05 onward) that carried this value, i.e. its release or its latest revision on or before as_of.";
const NOT_PUBLISHED = (what: string) => `Publication dates are not held for ${what}: published is null, never guessed.`;

function seriesNotHeld(id: string): AppError {
  const held = heldSeries().map((s) => s.id);
  return new AppError("not_included", {
    reason: "series_not_included",
    detail: `${id} is not included in the offline data; held: ${held.join(", ")} (GET /api/v1/economy/series lists them, free)`,
    extra: { series_id: id, held },
  });
}

function vintageNotHeld(s: HeldSeries, asOf: string): AppError {
  const held = vintagesHeld(s.id);
  const withVintages = heldSeries()
    .filter((x) => vintagesHeld(x.id))
    .map((x) => x.id);
  const heldText = held
    ? [held.window ? `every ALFRED vintage ${held.window.first}..${held.window.last}` : null, ...held.snapshots.map((v) => `the snapshot of ${v.vintage_date}`)]
        .filter(Boolean)
        .join(", ")
    : `none (vintages are held for ${withVintages.join(" and ")} only)`;
  return new AppError("not_included", {
    reason: "vintage_not_included",
    detail: `${s.id} as of ${asOf} is not included: no vintage held answers for that day, and today's values would show later revisions. Vintages held: ${heldText}.`,
    extra: {
      series_id: s.id,
      as_of: asOf,
      vintages_held: held
        ? {
            alfred_window: held.window ? { first: held.window.first, last: held.window.last, vintages: held.window.vintages } : null,
            snapshots: held.snapshots.map((v) => v.vintage_date),
          }
        : null,
      series_with_vintages: withVintages,
    },
  });
}

function answerFrom(s: HeldSeries, req: SeriesRequest, vintage: Vintage | null): SeriesAnswer {
  const obs = vintage ? vintage.observations : heldObservations(s.id)!.map((o) => ({ ...o, published: null }));
  const coverage = { first_date: obs[0]!.date, last_date: obs.at(-1)!.date };
  const what = vintage ? `the vintage of ${vintage.vintage_date}` : `the offline snapshot (retrieved ${s.retrieved})`;
  if ((req.start && req.start > coverage.last_date) || (req.end && req.end < coverage.first_date)) throw windowNotHeld(req, coverage, what);
  const { rows, has_more } = sliceWindow(obs, req);
  const notes: string[] = [];
  if (req.start && req.start < coverage.first_date) notes.push(`Observations before ${coverage.first_date} are not held in ${what}.`);
  if (req.end && req.end > coverage.last_date) notes.push(`Observations after ${coverage.last_date} are not held in ${what}.`);
  if (vintage?.kind === "snapshot")
    notes.push(`The snapshot of ${vintage.vintage_date} is the whole series as FRED served it that day, not its release dates.`);
  const alfred = vintage?.kind === "alfred";
  return {
    source: s.source,
    as_of: vintage ? vintage.vintage_date : s.retrieved,
    series_id: s.id,
    title: s.title,
    units: s.units,
    frequency: s.frequency,
    seasonal_adjustment: s.seasonal_adjustment,
    publisher: s.publisher,
    release: s.release,
    distributor: "fred",
    realtime: { as_of: req.asOf ?? null, vintage_date: vintage?.vintage_date ?? null, basis: vintage ? (alfred ? "alfred_vintage" : "snapshot") : "latest" },
    coverage,
    start: req.start ?? null,
    end: req.end ?? null,
    sort: req.sort,
    count: rows.length,
    has_more,
    publication_dates: {
      held: alfred,
      note: alfred ? ALFRED_PUBLISHED : NOT_PUBLISHED(vintage ? `the snapshot of ${vintage.vintage_date}` : "the latest values"),
    },
    notes: [...notes, ...seriesNotes(s.id, rows)],
    observations: rows,
  };
}

export const embeddedSeries: EconomySeriesSource = {
  async series(req) {
    const s = findHeldSeries(req.id);
    if (!s) throw seriesNotHeld(req.id);
    if (!req.asOf) return answerFrom(s, req, null);
    const vintage = vintageAsOf(s.id, req.asOf);
    if (!vintage) throw vintageNotHeld(s, req.asOf);
    return answerFrom(s, req, vintage);
  },
};
