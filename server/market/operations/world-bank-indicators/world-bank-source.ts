// This operation's own source, in both kinds (a ProviderFamily):
//   embedded  data/world-bank/<INDICATOR>.csv (country_code,year,value), countries.csv (names, aggregates) and
//             iso2.csv (alpha-2 -> alpha-3), read once on first use; sources and licence in data/world-bank/SOURCES.md
//   live      the World Bank API v2 (`WORLD_BANK_BASE_URL`, default https://api.worldbank.org):
//             GET /v2/country/{codes;...}/indicator/{id}?format=json&date={start}:{end}&per_page=1000&page=N
// The World Bank answers an unknown code with HTTP 200 and a message array (`[{"message":[{"id":"120",...}]}]`); that
// is the caller's 404, any other message or shape a 502.
import { AppError } from "../../../errors";
import { cached, dataFile, dataText } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig, ProviderFamily } from "../../providers/types";

export type WbCountry = { code: string; name: string | null; aggregate: boolean | null };
export type WbObservation = { country_code: string; year: number; value: number };
export type WbAnswer = {
  /** Each requested code (as sent) and the country it names; `country` null when the source does not know the code. */
  countries: { requested: string; country: WbCountry | null }[];
  rows: WbObservation[];
  as_of: string | null;
  last_updated: string | null;
};
export type WbHeld = { first_year: number; last_year: number; codes: number; rows: number; last_updated: string | null };

export interface WorldBankSource {
  readonly kind: "embedded" | "live";
  /** Observations of `indicator` for `codes` (ISO alpha-3, aggregates, alpha-2) with start <= year <= end. */
  observations(indicator: string, codes: string[], start: number, end: number): Promise<WbAnswer>;
  /** What the source holds of `indicator`; null when open-ended (live). */
  held(indicator: string): WbHeld | null;
}

type CatalogEntry = { indicator: string; file: string; rows: number; codes: number; first_year: number; last_year: number; wdi_last_updated: string | null };

const csvRows = (rel: string) =>
  dataText(rel)
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(","));

const catalog = () => cached("world-bank:catalog", () => dataFile<CatalogEntry[]>("world-bank/catalog.json"));

const countries = () =>
  cached("world-bank:countries", () => {
    const byCode = new Map<string, WbCountry>();
    // country_code,country_name,iso3166,aggregate; a name holding a comma is quoted ("Korea, Rep.").
    for (const line of dataText("world-bank/countries.csv").trim().split(/\r?\n/).slice(1)) {
      const m = /^([A-Z0-9]{3}),(.*),(true|false),(true|false)$/.exec(line);
      if (!m) throw new Error(`world-bank/countries.csv: unexpected row ${line}`);
      const name = m[2]!.replace(/^"(.*)"$/, "$1").replace(/""/g, '"');
      byCode.set(m[1]!, { code: m[1]!, name, aggregate: m[4] === "true" });
    }
    return byCode;
  });

const iso2 = () => cached("world-bank:iso2", () => new Map(csvRows("world-bank/iso2.csv").map(([two, three]) => [two!, three!])));

/** One indicator's file: rows by country code, years ascending; the value is the file's string read as a number. */
export function embeddedIndicator(indicator: string): Map<string, { year: number; value: number }[]> {
  return cached(`world-bank:${indicator}`, () => {
    const entry = catalog().find((c) => c.indicator === indicator);
    if (!entry) throw new AppError("not_included", { reason: "indicator_not_included", detail: `indicator ${indicator} is not held` });
    const by = new Map<string, { year: number; value: number }[]>();
    for (const [code, year, value] of csvRows(`world-bank/${entry.file}`)) {
      const list = by.get(code!) ?? [];
      list.push({ year: Number(year), value: Number(value) });
      by.set(code!, list);
    }
    return by;
  });
}

/** The aggregate codes on the shelf (regions, income and lending groups, the World). */
export const embeddedAggregates = (): string[] => [...countries().values()].filter((c) => c.aggregate).map((c) => c.code);

/** The country a code names on the shelf: alpha-3 or aggregate code as held, else alpha-2 mapped; null when unknown. */
export function embeddedCountry(code: string): WbCountry | null {
  const up = code.toUpperCase();
  return countries().get(up) ?? countries().get(iso2().get(up) ?? "") ?? null;
}

export const embeddedWorldBank: WorldBankSource = {
  kind: "embedded",
  async observations(indicator, codes, start, end) {
    const file = embeddedIndicator(indicator);
    const resolved = codes.map((requested) => ({ requested, country: embeddedCountry(requested) }));
    const held = [...new Set(resolved.flatMap(({ country }) => (country ? [country.code] : [])))];
    const rows = held.flatMap((code) => (file.get(code) ?? []).filter((r) => r.year >= start && r.year <= end).map((r) => ({ country_code: code, ...r })));
    const updated = catalog().find((c) => c.indicator === indicator)?.wdi_last_updated ?? null;
    return { countries: resolved, rows, as_of: updated, last_updated: updated };
  },
  held(indicator) {
    const e = catalog().find((c) => c.indicator === indicator);
    return e ? { first_year: e.first_year, last_year: e.last_year, codes: e.codes, rows: e.rows, last_updated: e.wdi_last_updated } : null;
  },
};

type WbPage = { page: number; pages: number; per_page: number; total: number; lastupdated?: string | null };
type WbRow = { indicator: { id: string }; country: { id: string; value: string }; countryiso3code: string; date: string; value: number | null };
type WbMessage = { message: { id: string; key: string; value: string }[] };

const MAX_PAGES = 10;

/** One page of the World Bank's answer, or the mapped error its message array names. */
function readPage(body: unknown): { meta: WbPage; rows: WbRow[] } {
  if (Array.isArray(body) && body.length === 1 && Array.isArray((body[0] as WbMessage)?.message)) {
    const m = (body[0] as WbMessage).message[0];
    const text = m ? `${m.key}: ${m.value} (World Bank message ${m.id})` : "an empty message";
    // 120 "Invalid value": a parameter it does not know; the indicator is one of ours, so it is a country code.
    if (m?.id === "120")
      throw new AppError("not_found", { reason: "unknown_country", detail: `the World Bank does not know a country code in the request: ${text}` });
    throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `the World Bank answered ${text}` });
  }
  if (!Array.isArray(body) || typeof body[0] !== "object" || body[0] === null || !("pages" in body[0]))
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "the World Bank answered in an unexpected shape" });
  return { meta: body[0] as WbPage, rows: Array.isArray(body[1]) ? (body[1] as WbRow[]) : [] };
}

export function liveWorldBank(cfg: LiveConfig, now: () => Date = () => new Date()): WorldBankSource {
  return {
    kind: "live",
    async observations(indicator, codes, start, end) {
      const base = liveSetting(cfg, "WORLD_BANK_BASE_URL", "https://api.worldbank.org").replace(/\/+$/, "");
      const path = `${base}/v2/country/${codes.map(encodeURIComponent).join(";")}/indicator/${encodeURIComponent(indicator)}`;
      const rows: WbRow[] = [];
      let lastUpdated: string | null = null;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const res = await fetchJson(`${path}?format=json&date=${start}:${end}&per_page=1000&page=${page}`, {
          provider: "world_bank",
          timeoutMs: cfg.timeoutMs,
          retries: cfg.retries,
          backoffMs: cfg.backoffMs,
        });
        if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `the World Bank answered ${res.failure.status}` });
        const { meta, rows: got } = readPage(res.body);
        rows.push(...got);
        lastUpdated = meta.lastupdated ?? lastUpdated;
        if (page >= meta.pages) break;
      }
      const found = new Map<string, WbCountry>();
      for (const r of rows) {
        const c = { code: r.countryiso3code || r.country.id, name: r.country.value, aggregate: embeddedAggregate(r.countryiso3code) };
        found.set(r.countryiso3code.toUpperCase(), c).set(r.country.id.toUpperCase(), c);
      }
      return {
        countries: codes.map((requested) => ({ requested, country: found.get(requested.toUpperCase()) ?? null })),
        rows: rows
          .filter((r) => r.value !== null && Number.isFinite(r.value))
          .map((r) => ({ country_code: r.countryiso3code || r.country.id, year: Number(r.date), value: r.value! })),
        as_of: now().toISOString(),
        last_updated: lastUpdated,
      };
    },
    held: () => null,
  };
}

/** Whether a code the World Bank answered is an aggregate, as the shelf's countries.csv classifies it (null if absent). */
function embeddedAggregate(code: string): boolean | null {
  try {
    return countries().get(code)?.aggregate ?? null;
  } catch {
    return null;
  }
}

export const worldBankSource: ProviderFamily<WorldBankSource> = {
  name: "world-bank",
  embedded: () => embeddedWorldBank,
  live: (cfg) => liveWorldBank(cfg),
};
