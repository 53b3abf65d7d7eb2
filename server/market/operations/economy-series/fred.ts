// FRED's API (Federal Reserve Bank of St. Louis), the live distributor of every series: `series` (metadata),
// `series/observations` (values; with realtime_start = realtime_end = as_of, ALFRED's values as known that day) and
// `series/vintagedates` (the vintage in effect on as_of). FRED_API_KEY, FRED_BASE_URL. FRED answers a bad request with
// HTTP 400 and `{error_code, error_message}`: an unknown series is the caller's 404, a refused key our 502.
import { AppError } from "../../../errors";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig } from "../../providers/types";

export const FRED_DEFAULT_BASE_URL = "https://api.stlouisfed.org/fred";

export type FredSeriesMeta = { id: string; title: string; units: string; frequency: string; seasonal_adjustment: string };
type FredObservations = { count?: number; observations?: { date: string; value: string; realtime_start?: string }[] };
type FredVintageDates = { vintage_dates?: string[] };
type FredError = { error_code?: number; error_message?: string };

export type FredObservationsQuery = { id: string; start?: string; end?: string; asOf?: string; limit: number; sort: "asc" | "desc" };

export type FredClient = {
  seriesMeta(id: string): Promise<FredSeriesMeta>;
  observations(q: FredObservationsQuery): Promise<{ rows: { date: string; value: number | null }[]; count: number }>;
  /** The last vintage on or before `asOf`, or null when the series had none yet. */
  vintageOn(id: string, asOf: string): Promise<string | null>;
};

function fredFailure(id: string, status: number, body: unknown): AppError {
  const message = (body as FredError | null)?.error_message ?? "";
  if (/series does not exist/i.test(message))
    return new AppError("not_found", { reason: "unknown_series", detail: `FRED has no series ${id}`, extra: { series_id: id } });
  if (/api_key/i.test(message))
    return new AppError("upstream_unavailable", { reason: "provider_not_configured", detail: "FRED refused the configured key (check FRED_API_KEY)" });
  if (status === 400)
    return new AppError("invalid_request", {
      reason: "rejected_by_provider",
      detail: `FRED refused the request: ${message || "bad request"}`,
      extra: { series_id: id },
    });
  if (status === 404) return new AppError("not_found", { reason: "unknown_series", detail: `FRED has no series ${id}`, extra: { series_id: id } });
  return new AppError("upstream_unavailable", { reason: "provider_error", detail: `FRED answered ${status}` });
}

// FRED's missing value is "."; anything else that is not a number is FRED's answer changing shape, not a value to guess.
function fredValue(text: string, id: string, date: string): number | null {
  if (text === ".") return null;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n))
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `FRED answered "${text}" for ${id} ${date}` });
  return n;
}

export function fredClient(cfg: LiveConfig): FredClient {
  const base = () => liveSetting(cfg, "FRED_BASE_URL", FRED_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const key = () => liveSetting(cfg, "FRED_API_KEY");
  async function get<T>(path: string, id: string, params: Record<string, string | undefined>): Promise<T> {
    const apiKey = key();
    const qs = new URLSearchParams({ series_id: id, api_key: apiKey, file_type: "json" });
    for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, v);
    const res = await fetchJson<T>(`${base()}/${path}?${qs}`, {
      provider: "fred",
      redact: [apiKey],
      timeoutMs: cfg.timeoutMs,
      retries: cfg.retries,
      backoffMs: cfg.backoffMs,
    });
    if (!res.ok) throw fredFailure(id, res.failure.status, res.failure.body);
    return res.body;
  }
  return {
    async seriesMeta(id) {
      const body = await get<{ seriess?: FredSeriesMeta[] }>("series", id, {});
      const s = body.seriess?.[0];
      if (!s?.title) throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "FRED's series answer holds no series" });
      return { id: s.id, title: s.title, units: s.units, frequency: s.frequency, seasonal_adjustment: s.seasonal_adjustment };
    },
    async observations(q) {
      const body = await get<FredObservations>("series/observations", q.id, {
        observation_start: q.start,
        observation_end: q.end,
        realtime_start: q.asOf,
        realtime_end: q.asOf,
        sort_order: q.sort,
        limit: String(q.limit),
      });
      if (!Array.isArray(body.observations))
        throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "FRED's observations answer has no observations" });
      const rows = body.observations.map((o) => ({ date: o.date, value: fredValue(o.value, q.id, o.date) }));
      return { rows, count: typeof body.count === "number" ? body.count : rows.length };
    },
    async vintageOn(id, asOf) {
      const body = await get<FredVintageDates>("series/vintagedates", id, { realtime_end: asOf, sort_order: "desc", limit: "1" });
      // The latest date on or before as_of, whatever order or length the answer has.
      return (body.vintage_dates ?? []).filter((d) => d <= asOf).reduce<string | null>((m, d) => (m === null || d > m ? d : m), null);
    },
  };
}
