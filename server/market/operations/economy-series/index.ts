// GET /api/v1/economy/series/{series_id}: observations of one US economic series between two dates, optionally as
// known on a past date (ALFRED vintages). Its own source (series-source.ts: FRED's files offline; FRED and BLS live);
// the latest observations of every held series archived daily.
import { heldSeries, vintagesHeld } from "../../providers/economy-catalog";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { getEconomySeries } from "./get-economy-series";

/** The series archived daily (the ids held offline; a test checks they are the catalog's). */
export const ARCHIVED_SERIES = ["FEDFUNDS", "DFF", "DGS3MO", "DTB3", "DGS2", "DGS10", "DGS30", "CPIAUCSL", "UNRATE", "PAYEMS", "GDP", "GDPC1", "GFDEBTN"];
const FEED_OBSERVATIONS = 12;

/** What the offline files hold, in one paragraph derived from them (OpenAPI, the MCP tool, the console). */
export function embeddedSeriesCoverage() {
  const series = heldSeries();
  const withVintages = series.flatMap((s) => {
    const v = vintagesHeld(s.id);
    return v ? [{ id: s.id, v }] : [];
  });
  const v = withVintages[0]?.v;
  const vintageText = v
    ? `as_of answers for ${withVintages.map((x) => x.id).join(" and ")} only: any date ${v.window?.first}..${v.window?.last} (every ALFRED vintage, observations ` +
      `${v.window?.observations.first}..${v.window?.observations.last}, with each value's publication date) and the whole-series snapshots of ` +
      `${v.snapshots.map((x) => x.vintage_date).join(" and ")}`
    : "no vintages are held";
  const dgs3mo = series.find((s) => s.id === "DGS3MO");
  const dtb3 = series.find((s) => s.id === "DTB3");
  return {
    summary:
      `Offline data (FRED's files): ${series.map((s) => `${s.id} ${s.first_date}..${s.last_date}`).join(", ")}. ${vintageText}. ` +
      (dgs3mo && dtb3 ? `DGS3MO ends ${dgs3mo.last_date}: DTB3 (discount basis) runs to ${dtb3.last_date}. ` : "") +
      "Another series, a window wholly outside these dates or an as_of no vintage answers is a 403 not_included, never charged.",
    entities: series.map((s) => ({ name: s.id, first_date: s.first_date, last_date: s.last_date })),
  };
}

export const economySeries = defineOperation({
  contract,
  service: "us-economy",
  meter: { key: "economy_series", title: "US economic series observations", priceMicros: 10_000n },
  source: "federal_reserve",
  goal: "US economic data: fed funds rate, 10-year treasury yield, CPI inflation, unemployment rate, nonfarm payrolls, GDP, public debt",
  example: () => {
    const dgs10 = heldSeries().find((s) => s.id === "DGS10")!;
    return { path: { series_id: "DGS10" }, query: { start: `${dgs10.last_date.slice(0, 7)}-01`, end: dgs10.last_date } };
  },
  refusal: () => {
    const dgs3mo = heldSeries().find((s) => s.id === "DGS3MO")!;
    return { path: { series_id: "DGS3MO" }, query: { start: `${Number(dgs3mo.last_date.slice(0, 4)) + 1}-01-01` } };
  },
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from FRED (St. Louis Fed; FRED_API_KEY): any series FRED distributes, every date it holds, and as_of for any date ALFRED has a vintage of " +
          "the series. CPI, unemployment and payrolls come from the BLS API itself for the latest values of a window it serves in one request " +
          "(a start given, at most 20 years with BLS_API_KEY, 10 without).",
      };
    return embeddedSeriesCoverage();
  },
  run: ({ path, query }, ctx) => getEconomySeries(path.series_id, query, ctx.providers),
  feed: {
    description: `The latest ${FEED_OBSERVATIONS} observations of each series, as GET /api/v1/economy/series/{series_id}?sort=desc returned them`,
    entities: ARCHIVED_SERIES,
    fetch: (entity, { providers }) => getEconomySeries(entity, { limit: FEED_OBSERVATIONS, sort: "desc" }, providers),
    summarize(p) {
      const a = p as { series_id: string; count: number; observations: { date: string; value: number | null }[] };
      const latest = a.observations[0];
      return { series_id: a.series_id, count: a.count, latest_date: latest?.date ?? null, latest_value: latest?.value ?? null };
    },
  },
});
