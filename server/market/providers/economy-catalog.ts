// The US economic series held offline (data/economy/, FRED's series with their publishers' numbers), as the series
// operation and the series listing both read them: each series' metadata (data/economy/catalog.json), its observations
// (series/<ID>.csv), and the vintages held for a point-in-time answer (vintages/: ALFRED's real-time window 2019-07-05 ..
// 2020-11-06 and two dated snapshots, for UNRATE and PAYEMS only). A source two operations share, so it sits a floor
// below them (docs/operations.md). Read lazily, once per process; nothing here computes or fills in a value.
import { cached, dataFile, dataText } from "./data-file";

/** The agency that produces a series' numbers (the envelope's `source`); FRED is the distributor. */
export const ECONOMY_SOURCES = ["federal_reserve", "bls", "bea", "us_treasury"] as const;
export type EconomySource = (typeof ECONOMY_SOURCES)[number];

export type CatalogEntry = {
  id: string;
  title: string;
  units: string;
  frequency: string;
  seasonal_adjustment: string;
  publisher: string;
  release: string;
  file: string;
  observation_start: string;
  observation_end: string;
  rows: number;
  values: number;
  retrieved: string;
  sliced_from: string | null;
};

export type HeldSeries = CatalogEntry & { source: EconomySource; first_date: string; last_date: string };

/** One observation as the file holds it: null where FRED lists the date without a value (its "."). */
export type Observation = { date: string; value: number | null };

/** A vintage of a series: the observations as FRED served them on `vintage_date`. */
export type Vintage = { vintage_date: string; kind: "alfred" | "snapshot"; observations: (Observation & { published: string | null })[] };

export type VintagesHeld = {
  /** ALFRED's real-time window: every vintage in it is held, so any date inside answers with the vintage in effect. */
  window: { first: string; last: string; vintages: string[]; observations: { first: string; last: string } } | null;
  /** Whole-series snapshots seen on one day (not release dates): answerable on that exact day only. */
  snapshots: { vintage_date: string; observations: { first: string; last: string } }[];
};

const DIR = "economy";

// The catalog's `publisher` is FRED's series-page source; the envelope names it by one word.
const PUBLISHERS: [RegExp, EconomySource][] = [
  [/federal reserve/i, "federal_reserve"],
  [/labor statistics/i, "bls"],
  [/economic analysis/i, "bea"],
  [/treasury/i, "us_treasury"],
];

export function sourceOfPublisher(publisher: string): EconomySource | null {
  return PUBLISHERS.find(([re]) => re.test(publisher))?.[1] ?? null;
}

/** Every series held offline, in the catalog's order. */
export function heldSeries(): HeldSeries[] {
  return cached("economy:catalog", () =>
    dataFile<CatalogEntry[]>(`${DIR}/catalog.json`).map((c) => {
      const source = sourceOfPublisher(c.publisher);
      if (!source) throw new Error(`economy catalog: no source for publisher "${c.publisher}" (${c.id})`);
      const obs = seriesObservations(c.id, c.file);
      return { ...c, source, first_date: obs[0]!.date, last_date: obs.at(-1)!.date };
    }),
  );
}

export function findHeldSeries(id: string): HeldSeries | undefined {
  return heldSeries().find((s) => s.id === id);
}

// A CSV value is the source's text ("78.0", "4.4"); empty is FRED's "." (no value). Never anything else.
function toValue(text: string, where: string): number | null {
  if (text === "") return null;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`economy data: ${where} holds "${text}", not a number`);
  return n;
}

function csvRows(rel: string): string[][] {
  const lines = dataText(rel).trim().split(/\r?\n/);
  return lines.slice(1).map((l) => l.split(","));
}

function seriesObservations(id: string, file: string): Observation[] {
  return cached(`economy:series:${id}`, () =>
    csvRows(`${DIR}/${file}`).map(([date, value]) => ({ date: date!, value: toValue(value ?? "", `${id} ${date}`) })),
  );
}

/** The series as held now (its latest snapshot), oldest first; undefined when it is not held. */
export function heldObservations(id: string): Observation[] | undefined {
  const s = findHeldSeries(id);
  return s ? seriesObservations(s.id, s.file) : undefined;
}

type VintageRow = { series: string; vintage: string; date: string; value: number | null };

function vintageRows(): VintageRow[] {
  return cached("economy:vintages", () => {
    const window = csvRows(`${DIR}/vintages/alfred-2019-2020.csv`).map(([series, vintage, date, value]) => ({
      series: series!,
      vintage: vintage!,
      date: date!,
      value: toValue(value ?? "", `ALFRED ${series} ${vintage} ${date}`),
    }));
    return window;
  });
}

function snapshotRows(id: string): { vintage: string; date: string; value: number | null }[] {
  return cached(`economy:snapshots:${id}`, () => {
    try {
      return csvRows(`${DIR}/vintages/${id}.csv`).map(([vintage, date, value]) => ({
        vintage: vintage!,
        date: date!,
        value: toValue(value ?? "", `${id} ${vintage}`),
      }));
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return [];
      throw err;
    }
  });
}

const span = (dates: string[]) => ({ first: dates.reduce((a, b) => (b < a ? b : a)), last: dates.reduce((a, b) => (b > a ? b : a)) });

/** The vintages held for `id` (null when none: every series but UNRATE and PAYEMS). */
export function vintagesHeld(id: string): VintagesHeld | null {
  return cached(`economy:held-vintages:${id}`, () => {
    const window = vintageRows().filter((r) => r.series === id);
    const snaps = snapshotRows(id);
    if (!window.length && !snaps.length) return null;
    const vintages = [...new Set(window.map((r) => r.vintage))].sort();
    const snapshotDates = [...new Set(snaps.map((r) => r.vintage))].sort();
    return {
      window: window.length ? { ...span(vintages), vintages, observations: span(window.map((r) => r.date)) } : null,
      snapshots: snapshotDates.map((d) => ({ vintage_date: d, observations: span(snaps.filter((r) => r.vintage === d).map((r) => r.date)) })),
    };
  });
}

/**
 * The vintage of `id` in effect on `asOf`, or null when none held answers for that day: inside ALFRED's window the
 * latest vintage on or before it (every vintage there is held), each value with the first vintage that carried it
 * (ALFRED's realtime_start: when it was published or last revised); a snapshot only on its own day, with no
 * publication dates (a snapshot says what was in effect, not since when).
 */
export function vintageAsOf(id: string, asOf: string): Vintage | null {
  const held = vintagesHeld(id);
  if (!held) return null;
  const snap = held.snapshots.find((s) => s.vintage_date === asOf);
  if (snap)
    return {
      vintage_date: asOf,
      kind: "snapshot",
      observations: snapshotRows(id)
        .filter((r) => r.vintage === asOf)
        .map((r) => ({ date: r.date, value: r.value, published: null })),
    };
  const w = held.window;
  if (!w || asOf < w.first || asOf > w.last) return null;
  const vintage = w.vintages.filter((v) => v <= asOf).at(-1)!;
  const rows = vintageRows().filter((r) => r.series === id && r.vintage <= vintage);
  const byDate = new Map<string, VintageRow[]>();
  for (const r of rows) byDate.set(r.date, [...(byDate.get(r.date) ?? []), r]);
  const observations = [...byDate.entries()]
    .filter(([, versions]) => versions.some((v) => v.vintage === vintage))
    .map(([date, versions]) => {
      const ordered = versions.sort((a, b) => (a.vintage < b.vintage ? -1 : 1));
      const current = ordered.at(-1)!;
      // Walk back while the value is unchanged: the first vintage of this run is when this value appeared.
      let i = ordered.length - 1;
      while (i > 0 && ordered[i - 1]!.value === current.value) i--;
      return { date, value: current.value, published: ordered[i]!.vintage };
    })
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  return { vintage_date: vintage, kind: "alfred", observations };
}

/**
 * What an agent must know about a series beyond its metadata, from data/economy/SOURCES.md ("Caveats an operation must
 * know"): where it ends and what to use instead, its gaps, its quotation. `date`: the note is about that observation
 * only (said when an answer holds it); `offlineOnly`: about the held files, not the series itself.
 */
export type SeriesCaveat = { note: string; date?: string; alternative?: string; offlineOnly?: boolean };

const SHUTDOWN_2025 = "after the 2025 federal shutdown";

export const SERIES_CAVEATS: Record<string, SeriesCaveat[]> = {
  DGS3MO: [
    {
      note: "DGS3MO (investment basis) is held only to 2021-01-04: no later unmodified download was found. DTB3 is the current 3-month rate here, on a discount basis (a different quotation).",
      alternative: "DTB3",
      offlineOnly: true,
    },
  ],
  DTB3: [{ note: "DTB3 is quoted on a discount basis, not the investment-basis yield of DGS3MO." }],
  DFF: [{ note: "DFF has every calendar day: weekends and holidays carry the previous business day's rate." }],
  CPIAUCSL: [
    { note: "CPIAUCSL is the seasonally adjusted CPI-U index (not BLS's not-adjusted CUUR0000SA0)." },
    { note: `2025-10 has no value: BLS did not publish October 2025 CPI ${SHUTDOWN_2025}.`, date: "2025-10-01" },
  ],
  UNRATE: [{ note: `2025-10 has no value: BLS did not publish October 2025 household-survey figures ${SHUTDOWN_2025}.`, date: "2025-10-01" }],
  GFDEBTN: [{ note: "GFDEBTN is quarterly total public debt outstanding (end of quarter); no daily Debt to the Penny series is held.", offlineOnly: true }],
};

/** The caveat naming another series to use where this one is not held, if any. */
export function alternativeOf(id: string): SeriesCaveat | undefined {
  return SERIES_CAVEATS[id]?.find((c) => c.alternative);
}

/** Words agents use for a series that its FRED title lacks (search only). */
export const SERIES_TERMS: Record<string, string[]> = {
  FEDFUNDS: ["fed funds", "federal funds rate", "interest rate", "monetary policy", "effr", "monthly"],
  DFF: ["fed funds", "federal funds rate", "interest rate", "daily", "effr"],
  DGS3MO: ["3-month", "treasury yield", "bill", "t-bill", "interest rate"],
  DTB3: ["3-month", "treasury bill", "t-bill", "interest rate", "discount"],
  DGS2: ["2-year", "treasury yield", "note", "interest rate"],
  DGS10: ["10-year", "treasury yield", "note", "interest rate", "benchmark"],
  DGS30: ["30-year", "treasury yield", "bond", "long bond", "interest rate"],
  CPIAUCSL: ["cpi", "inflation", "consumer prices", "cpi-u"],
  UNRATE: ["unemployment", "jobless", "labor market", "jobs", "employment situation"],
  PAYEMS: ["payrolls", "nonfarm payrolls", "nfp", "jobs", "employment", "labor market"],
  GDP: ["gdp", "nominal gdp", "output", "economy", "growth"],
  GDPC1: ["gdp", "real gdp", "output", "economy", "growth"],
  GFDEBTN: ["debt", "public debt", "national debt", "federal debt", "government debt"],
};
