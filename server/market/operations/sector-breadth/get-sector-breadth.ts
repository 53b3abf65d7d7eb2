// The sector breadth answer: the members' closes (enough before `from` for the window), the computed readings, the
// requested days, with the method, the members and the inputs' adjustment basis.
import { AppError, invalidParameter } from "../../../errors";
import { MARKET_SOURCE } from "../../lib/envelope";
import { breadthMethod, computeSectorBreadth } from "./compute-sector-breadth";
import { SECTOR_ETFS, type SectorClosesSource } from "./sector-closes-source";

export type SectorBreadthQuery = { window: number; from?: string; to?: string; sort: "asc" | "desc"; limit: number };

const DAY_MS = 86_400_000;

export async function getSectorBreadth(q: SectorBreadthQuery, source: SectorClosesSource) {
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", "from must be on or before to");
  // Live, without `from`, the closes are read from far enough back for `limit` days (7 calendar days per 5 sessions).
  const end = q.to ?? new Date().toISOString().slice(0, 10);
  const fromHint =
    q.from ??
    (source.kind === "live" ? new Date(Date.parse(`${end}T00:00:00Z`) - Math.ceil(q.limit * 1.5 + 5) * DAY_MS).toISOString().slice(0, 10) : undefined);
  const data = await source.closes(q.window, fromHint, q.to);
  const series = computeSectorBreadth(data.byTicker, q.window);
  const first = series[0]?.date;
  const last = series.at(-1)?.date;
  if (!first || !last || (q.to && q.to < first) || (q.from && q.from > last))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: first ? `sector closes for ${q.from ?? "..."}..${q.to ?? "..."} are not held: ${first}..${last}` : "no sector closes are held",
      extra: { coverage: { first_date: first ?? null, last_date: last ?? null } },
    });
  const inWindow = series.filter((d) => (!q.from || d.date >= q.from) && (!q.to || d.date <= q.to));
  const days = (q.sort === "desc" ? [...inWindow].reverse() : inWindow).slice(0, q.limit);
  return {
    source: MARKET_SOURCE,
    as_of: data.retrievedAt,
    measure: "percent_above_sma" as const,
    computed: true as const,
    window: q.window,
    method: breadthMethod(q.window, data.basis),
    inputs: { source: data.inputs, basis: data.basis },
    members: SECTOR_ETFS.map((m) => {
      const closes = data.byTicker.get(m.ticker) ?? [];
      return { ticker: m.ticker, sector: m.sector, first_date: closes[0]?.date ?? null, last_date: closes.at(-1)?.date ?? null };
    }),
    first_reading_date: series.find((d) => d.percent_above !== null)?.date ?? null,
    count: days.length,
    days,
  };
}
