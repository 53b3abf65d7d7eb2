// The series offered, from the shared economy catalog (data/economy/): each with its metadata, the dates held offline,
// what answers live, and the vintages held. A search matches every word of `q` against a series' id, title, agency and
// the words agents use for it (SERIES_TERMS), by word prefix ("payroll" finds "payrolls").
import type { z } from "zod";
import { heldSeries, SERIES_CAVEATS, SERIES_TERMS, vintagesHeld, type EconomySource, type HeldSeries } from "../../providers/economy-catalog";
import type { ProviderKind } from "../../providers/types";
import type { economySeriesListResponse, listedSeries } from "./contract";

type Listed = z.output<typeof listedSeries>;

/** The series ids whose numbers BLS's own API also serves live (the series operation's live rule). */
const FROM_BLS_LIVE = new Set(["CPIAUCSL", "UNRATE", "PAYEMS"]);

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

function matches(s: HeldSeries, q: string): boolean {
  const hay = words([s.id, s.title, s.units, s.frequency, s.source.replace("_", " "), s.publisher, ...(SERIES_TERMS[s.id] ?? [])].join(" "));
  return words(q).every((w) => hay.some((h) => h.startsWith(w)));
}

function listed(s: HeldSeries, rows: number): Listed {
  const v = vintagesHeld(s.id);
  return {
    series_id: s.id,
    title: s.title,
    units: s.units,
    frequency: s.frequency,
    seasonal_adjustment: s.seasonal_adjustment,
    source: s.source,
    publisher: s.publisher,
    release: s.release,
    path: `/api/v1/economy/series/${s.id}`,
    coverage: {
      offline: { first_date: s.first_date, last_date: s.last_date, observations: rows, retrieved: s.retrieved },
      live: {
        distributor: FROM_BLS_LIVE.has(s.id) ? "fred, bls" : "fred",
        note:
          "Every date FRED holds now (FRED_API_KEY)" +
          (FROM_BLS_LIVE.has(s.id) ? "; the BLS API serves the latest values of a window of at most 20 years (10 without BLS_API_KEY) itself." : "."),
      },
    },
    vintages: {
      held: v !== null,
      offline: v
        ? {
            alfred_window: v.window
              ? { first: v.window.first, last: v.window.last, vintages: v.window.vintages.length, observations: v.window.observations }
              : null,
            snapshots: v.snapshots.map((x) => x.vintage_date),
          }
        : null,
      live: "ALFRED through FRED: as_of answers for any date on or after the series' first vintage.",
    },
    notes: (SERIES_CAVEATS[s.id] ?? []).map((c) => c.note),
  };
}

export function listEconomySeries(q: { q?: string; source?: EconomySource }, kind: ProviderKind): z.output<typeof economySeriesListResponse> {
  const all = heldSeries();
  const series = all.filter((s) => (!q.source || s.source === q.source) && (!q.q || matches(s, q.q))).map((s) => listed(s, s.rows));
  return {
    source: "fred",
    as_of: null,
    q: q.q ?? null,
    count: series.length,
    offered:
      kind === "live"
        ? `These ${all.length} series, and any other FRED series id live (its publisher then named only as fred).`
        : `Offline, these ${all.length} series only: another id answers 403 not_included, never charged.`,
    series,
  };
}
