// This operation's own source, in both kinds (a ProviderFamily), by EIA series id:
//   embedded  data/energy/*.csv (date,value as EIA publishes it; trading days for the spot prices, the survey's Monday
//             for gasoline), listed in data/energy/catalog.json; only the published frequency is held (nothing averaged)
//   live      the EIA API v2 (`EIA_BASE_URL`, default https://api.eia.gov; `EIA_API_KEY`): the series' route
//             (petroleum/pri/spt, natural-gas/pri/fut, petroleum/pri/gnd) with frequency, start, end, sorted by period,
//             paged by offset/length. A request EIA refuses for its key (403 API_KEY_MISSING / API_KEY_INVALID) is this
//             storefront's configuration, a 502 naming the setting; never the caller's.
import { AppError } from "../../../errors";
import { cached, dataFile, dataText } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig, ProviderFamily } from "../../providers/types";
import type { EnergyFrequency } from "./contract";

export type Price = { date: string; value: number };
export type EnergyHeld = { first: string; last: string; rows: number };

export interface EnergySource {
  readonly kind: "embedded" | "live";
  /** What is held of `series` at `frequency`: its days offline, "open" live, null when not held at that frequency. */
  held(series: string, frequency: EnergyFrequency): EnergyHeld | "open" | null;
  /** Prices with start <= date <= end, oldest first, at most `limit`; how many the window holds; the dates listed without a price. */
  prices(
    series: string,
    frequency: EnergyFrequency,
    start: string,
    end: string,
    limit: number,
  ): Promise<{ prices: Price[]; total: number; as_of: string | null; unpriced: string[] }>;
}

type CatalogEntry = { file: string; eia_series: string; frequency: string; first: string; last: string; rows: number };
const catalog = () => cached("energy:catalog", () => dataFile<CatalogEntry[]>("energy/catalog.json"));
/** The frequency a committed file holds, from its catalog line ("daily (trading days)", "weekly (Monday)"). */
const fileFrequency = (e: CatalogEntry): EnergyFrequency => (e.frequency.startsWith("weekly") ? "weekly" : "daily");

/** A committed series, oldest first: the file's strings read as numbers (negative ones included); null where the
 * source lists a date with no price (Henry Hub 2018-01-05, six gasoline weeks of 1990-91). */
export function embeddedSeries(series: string): { date: string; value: number | null }[] {
  return cached(`energy:${series}`, () => {
    const e = catalog().find((c) => c.eia_series === series);
    if (!e) return [];
    return dataText(`energy/${e.file}`)
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => {
        const [date, value] = l.split(",");
        const n = value?.trim() ? Number(value) : NaN;
        return { date: date!, value: Number.isFinite(n) ? n : null };
      });
  });
}

/** The first and last date with a price, and how many prices, of a committed series. */
function embeddedHeld(series: string): EnergyHeld | null {
  const priced = embeddedSeries(series).filter((p) => p.value !== null);
  return priced.length ? { first: priced[0]!.date, last: priced.at(-1)!.date, rows: priced.length } : null;
}

export const embeddedEnergy: EnergySource = {
  kind: "embedded",
  held(series, frequency) {
    const e = catalog().find((c) => c.eia_series === series);
    return e && fileFrequency(e) === frequency ? embeddedHeld(series) : null;
  },
  async prices(series, _frequency, start, end, limit) {
    const listed = embeddedSeries(series).filter((p) => p.date >= start && p.date <= end);
    const within = listed.flatMap((p) => (p.value === null ? [] : [{ date: p.date, value: p.value }]));
    const unpriced = listed.filter((p) => p.value === null).map((p) => p.date);
    return { prices: within.slice(0, limit), total: within.length, as_of: null, unpriced };
  },
};

/** EIA API v2 route of each series. */
export const EIA_ROUTES: Record<string, string> = {
  RWTC: "petroleum/pri/spt",
  RBRTE: "petroleum/pri/spt",
  RNGWHHD: "natural-gas/pri/fut",
  EMM_EPMR_PTE_NUS_DPG: "petroleum/pri/gnd",
};
const PAGE = 5000;

type EiaAnswer = { response?: { total?: string | number; data?: { period: string; value: string | number | null }[] } };
type EiaError = { error?: { code?: string; message?: string } | string; code?: number };

/** EIA's `period` as a date: a day as is, a month or a year as its first day. */
const periodDate = (p: string) => (p.length === 4 ? `${p}-01-01` : p.length === 7 ? `${p}-01` : p);
/** start/end in the form EIA takes for the frequency. */
const periodParam = (d: string, f: EnergyFrequency) => (f === "annual" ? d.slice(0, 4) : f === "monthly" ? d.slice(0, 7) : d);

function refusal(status: number, body: unknown): AppError {
  const err = (body as EiaError)?.error;
  const code = typeof err === "object" ? err?.code : undefined;
  if (code === "API_KEY_MISSING" || code === "API_KEY_INVALID")
    return new AppError("upstream_unavailable", {
      reason: "provider_not_configured",
      detail: `EIA refused the request (${code}): EIA_API_KEY is missing or not valid`,
    });
  const text = typeof err === "string" ? err : (err?.message ?? `HTTP ${status}`);
  return new AppError("upstream_unavailable", { reason: "provider_error", detail: `EIA answered ${status}: ${text.slice(0, 200)}` });
}

export function liveEnergy(cfg: LiveConfig, now: () => Date = () => new Date()): EnergySource {
  return {
    kind: "live",
    held: (series) => (EIA_ROUTES[series] ? "open" : null),
    async prices(series, frequency, start, end, limit) {
      const base = liveSetting(cfg, "EIA_BASE_URL", "https://api.eia.gov").replace(/\/+$/, "");
      const key = cfg.settings?.EIA_API_KEY ?? "";
      const prices: Price[] = [];
      const unpriced: string[] = [];
      let total = 0;
      for (let offset = 0; prices.length < limit;) {
        const qs = new URLSearchParams({
          ...(key ? { api_key: key } : {}),
          frequency,
          "data[0]": "value",
          "facets[series][]": series,
          start: periodParam(start, frequency),
          end: periodParam(end, frequency),
          "sort[0][column]": "period",
          "sort[0][direction]": "asc",
          offset: String(offset),
          length: String(Math.min(PAGE, limit - prices.length)),
        });
        const res = await fetchJson<EiaAnswer>(`${base}/v2/${EIA_ROUTES[series]}/data/?${qs}`, {
          provider: "eia",
          redact: key ? [key] : [],
          timeoutMs: cfg.timeoutMs,
          retries: cfg.retries,
          backoffMs: cfg.backoffMs,
        });
        if (!res.ok) throw refusal(res.failure.status, res.failure.body);
        const data = res.body.response?.data;
        if (!Array.isArray(data)) throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "EIA answered without response.data" });
        total = Number(res.body.response?.total ?? data.length);
        // Asked oldest first; sorted again here so a page in another order cannot scramble the answer.
        const page = data.flatMap((r) => {
          const n = r.value === null || r.value === "" ? NaN : Number(r.value);
          if (!Number.isFinite(n)) unpriced.push(periodDate(r.period));
          return Number.isFinite(n) ? [{ date: periodDate(r.period), value: n }] : [];
        });
        prices.push(...page.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)));
        offset += data.length;
        if (data.length === 0 || offset >= total) break;
      }
      return { prices: prices.slice(0, limit), total, as_of: now().toISOString(), unpriced };
    },
  };
}

export const energySource: ProviderFamily<EnergySource> = {
  name: "energy",
  embedded: () => embeddedEnergy,
  live: (cfg) => liveEnergy(cfg),
};
