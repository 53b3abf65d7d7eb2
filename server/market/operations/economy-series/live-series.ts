// The series source live. The publisher's own API answers where one call can: BLS for the three series it publishes
// (CPI, unemployment, payrolls), for the latest values of a window BLS serves in one request (a start given, at most 20
// years with BLS_API_KEY, 10 without). FRED answers everything else: any series it distributes, any window, and every
// `as_of` (ALFRED: the values in effect that day, and the vintage that was in effect). One rule, stated in the README,
// so an agent can tell from `distributor` who served it.
import { AppError } from "../../../errors";
import { findHeldSeries } from "../../providers/economy-catalog";
import type { LiveConfig } from "../../providers/types";
import { BLS_SERIES, blsClient } from "./bls";
import { fredClient } from "./fred";
import { seriesNotes, sliceWindow, type EconomySeriesSource, type SeriesAnswer, type SeriesRequest } from "./series-answer";

const LIVE_NOT_PUBLISHED =
  "Publication dates are not derived live: FRED's realtime_start in its answer is the day asked, not a release date, and BLS states none. published is null, never guessed.";

const byDate = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : 1);

export function liveSeries(cfg: LiveConfig, now: () => Date = () => new Date()): EconomySeriesSource {
  const fred = fredClient(cfg);
  const bls = blsClient(cfg);

  /** The BLS series id when BLS answers this request in one call, else null (FRED answers). */
  function blsRoute(req: SeriesRequest): { blsId: string; startYear: number; endYear: number } | null {
    const blsId = BLS_SERIES[req.id];
    if (!blsId || req.asOf || !req.start) return null;
    const startYear = Number(req.start.slice(0, 4));
    const endYear = Math.min(Number((req.end ?? now().toISOString()).slice(0, 4)), now().getUTCFullYear());
    return endYear >= startYear && endYear - startYear + 1 <= bls.yearsPerRequest() ? { blsId, startYear, endYear } : null;
  }

  function answer(req: SeriesRequest, parts: Pick<SeriesAnswer, "title" | "units" | "frequency" | "seasonal_adjustment" | "distributor" | "as_of">) {
    const held = findHeldSeries(req.id);
    return {
      source: held?.source ?? ("fred" as const),
      series_id: req.id,
      publisher: held?.publisher ?? null,
      release: held?.release ?? null,
      coverage: null,
      start: req.start ?? null,
      end: req.end ?? null,
      sort: req.sort,
      publication_dates: { held: false, note: LIVE_NOT_PUBLISHED },
      ...parts,
    };
  }

  async function fromBls(req: SeriesRequest, route: { blsId: string; startYear: number; endYear: number }): Promise<SeriesAnswer> {
    const held = findHeldSeries(req.id)!;
    const obs = await bls.monthly(route.blsId, route.startYear, route.endYear);
    const { rows, has_more } = sliceWindow(obs, req);
    const base = { title: held.title, units: held.units, frequency: held.frequency, seasonal_adjustment: held.seasonal_adjustment };
    return {
      ...answer(req, { ...base, distributor: "bls", as_of: now().toISOString() }),
      realtime: { as_of: null, vintage_date: null, basis: "live" },
      count: rows.length,
      has_more,
      notes: [
        `Served by the BLS API (BLS series ${route.blsId}), the publisher's own numbers; FRED carries the same values.`,
        ...seriesNotes(req.id, rows, true),
      ],
      observations: rows.map((r) => ({ ...r, published: null })),
    };
  }

  async function fromFred(req: SeriesRequest): Promise<SeriesAnswer> {
    // The vintage first: an as_of before a series' first vintage is refused, not sent on to FRED.
    const vintage = req.asOf ? await fred.vintageOn(req.id, req.asOf) : null;
    if (req.asOf && !vintage)
      throw new AppError("not_included", {
        reason: "vintage_not_included",
        detail: `ALFRED holds no vintage of ${req.id} on or before ${req.asOf}`,
        extra: { series_id: req.id, as_of: req.asOf },
      });
    const [meta, obs] = await Promise.all([fred.seriesMeta(req.id), fred.observations(req)]);
    const { rows, has_more } = sliceWindow(obs.rows.sort(byDate), req);
    const { title, units, frequency, seasonal_adjustment } = meta;
    return {
      ...answer(req, { title, units, frequency, seasonal_adjustment, distributor: "fred", as_of: vintage ?? now().toISOString() }),
      realtime: { as_of: req.asOf ?? null, vintage_date: vintage, basis: "live" },
      count: rows.length,
      has_more: has_more || obs.count > rows.length,
      notes: seriesNotes(req.id, rows, true),
      observations: rows.map((r) => ({ ...r, published: null })),
    };
  }

  return {
    series(req) {
      const route = blsRoute(req);
      return route ? fromBls(req, route) : fromFred(req);
    },
  };
}
