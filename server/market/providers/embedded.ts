// The embedded providers (MARKET_PROVIDER=embedded, the default): everything from files on disk, offline.
// Data a provider does not hold gets the answer a real vendor gives (404 unknown_ticker, 403 not_included),
// never an invented bar.
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import { bucketDailyBars, bucketSpan } from "../aggregates/bucket-daily-bars";
import { EMBEDDED_TICKERS, embeddedCoverage, embeddedDailySeries } from "./embedded-daily-series";
import type { AggregatesProvider, EquityQuotesProvider, MarketProviders, PerpContext, PerpsProvider, RatesProvider, TreasuryRateRow } from "./types";

function dataFile<T>(rel: string): T {
  const root = process.env.MARKET_DATA_ROOT ?? process.cwd();
  return JSON.parse(fs.readFileSync(path.join(root, "data/market", rel), "utf8")) as T;
}

let memo = new Map<string, unknown>();
function cached<T>(key: string, load: () => T): T {
  if (!memo.has(key)) memo.set(key, load());
  return memo.get(key) as T;
}
/** Tests only: re-read the data files. */
export function resetEmbeddedCache(): void {
  memo = new Map();
}

function unknownTicker(ticker: string): AppError {
  return new AppError("unknown_ticker", {
    detail: `${ticker} is not in this provider's dataset (embedded data covers ${EMBEDDED_TICKERS.join(", ")})`,
    extra: { ticker },
  });
}

export const embeddedAggregates: AggregatesProvider = {
  name: "embedded",
  coverage: (ticker) => embeddedCoverage(ticker),
  async getAggregates(p) {
    const series = embeddedDailySeries(p.ticker, p.adjusted);
    if (!series) throw unknownTicker(p.ticker);
    if (p.timespan === "minute" || p.timespan === "hour") {
      throw new AppError("not_included", {
        reason: "timespan_not_included",
        detail: `${p.timespan} bars are not included: the embedded dataset holds daily bars only (day, week, month, quarter, year)`,
        extra: { ticker: p.ticker, timespan: p.timespan },
      });
    }
    const q = { ...p, timespan: p.timespan };
    const cov = embeddedCoverage(p.ticker)!;
    // Buckets are whole periods (a week asked from a Wednesday starts on its Sunday), so what must meet the
    // coverage is the span of the buckets, not the bare from..to.
    const span = bucketSpan(q);
    if (span && (span.last < cov.first || span.first > cov.last)) {
      throw new AppError("not_included", {
        reason: "timeframe_not_included",
        detail: `${p.ticker} data for ${span.first}..${span.last} is not included: the embedded dataset covers ${cov.first}..${cov.last}`,
        extra: { ticker: p.ticker, coverage: { first_date: cov.first, last_date: cov.last } },
      });
    }
    return { bars: bucketDailyBars(series, q), adjusted: p.adjusted };
  },
  async getDailyBars(ticker, from, to) {
    const series = embeddedDailySeries(ticker, true);
    if (!series) throw unknownTicker(ticker);
    return series.filter((b) => b.date >= from && b.date <= to);
  },
};

type PerpSnapshot = {
  /** `source` names the recordings in one line; snapshots written before it existed have only the note. */
  provenance: { kind: string; recorded_at: string; source?: string; note: string };
  perpDexs: ({ name: string; fullName: string } | null)[];
  metaAndAssetCtxs: Record<string, [{ universe: { name: string; isDelisted?: boolean }[] }, Record<string, unknown>[]]>;
  equityQuotes: Record<string, { price: number; prev_close: number; as_of: string }>;
};

/** Where record-basis-snapshot.ts writes the snapshot, relative to data/market. */
export const PERP_SNAPSHOT_FILE = "perps/equity-perps-snapshot.json";

export const NO_RECORDED_PERP_SNAPSHOT =
  "the embedded data has no recorded equity-perpetual snapshot; run with MARKET_PROVIDER=live (Hyperliquid + Massive), or record one with npx tsx server/market/basis/record-basis-snapshot.ts";

/**
 * The committed equity-perp snapshot, only if it is a real recording (provenance.kind "recorded", as
 * record-basis-snapshot.ts writes it). Anything else (no file, a fixture) is data this provider does not
 * hold: 403 not_included, as a vendor answers for data outside the plan.
 */
function recordedPerpSnapshot(): PerpSnapshot {
  const s = cached("perps", () => {
    try {
      return dataFile<PerpSnapshot>(PERP_SNAPSHOT_FILE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return null;
      throw err;
    }
  });
  if (!s || s.provenance?.kind !== "recorded") throw new AppError("not_included", { detail: NO_RECORDED_PERP_SNAPSHOT });
  return s;
}
export const equityPerpTickers = () => cached("equity-tickers", () => new Set(dataFile<{ tickers: string[] }>("perps/equity-perp-tickers.json").tickers));

/** Hyperliquid's metaAndAssetCtxs answer for one dex -> contexts of the perps that are US stocks. */
export function equityPerpContexts(dex: string, doc: unknown, equities: Set<string>): PerpContext[] {
  if (!Array.isArray(doc) || doc.length < 2)
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `hyperliquid metaAndAssetCtxs for ${dex} has an unexpected shape` });
  const universe = (doc[0] as { universe?: { name: string; isDelisted?: boolean }[] })?.universe ?? [];
  const ctxs = doc[1] as Record<string, unknown>[];
  const num = (v: unknown) => (v === null || v === undefined || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));
  const out: PerpContext[] = [];
  universe.forEach((u, i) => {
    const name = u.name.includes(":") ? u.name.slice(u.name.indexOf(":") + 1) : u.name;
    if (u.isDelisted || !equities.has(name)) return;
    const c = ctxs[i] ?? {};
    out.push({
      dex,
      symbol: u.name,
      name,
      markPx: num(c.markPx),
      oraclePx: num(c.oraclePx),
      funding: num(c.funding),
      openInterest: num(c.openInterest),
      dayNtlVlm: num(c.dayNtlVlm),
    });
  });
  return out;
}

export const embeddedPerps: PerpsProvider = {
  name: "embedded",
  async getPerps() {
    const s = recordedPerpSnapshot();
    const venues: Record<string, string> = {};
    for (const d of s.perpDexs) if (d) venues[d.name] = d.fullName ?? d.name;
    const contexts = Object.entries(s.metaAndAssetCtxs).flatMap(([dex, doc]) => equityPerpContexts(dex, doc, equityPerpTickers()));
    const { kind, recorded_at: at, source, note: recordNote } = s.provenance;
    const note = `Recorded snapshot of ${at}, not live data (provenance.source names the recordings); set MARKET_PROVIDER=live for live data.`;
    return { as_of: at, venues, contexts, note, provenance: { kind, source: source ?? recordNote, as_of: at } };
  },
};

export const embeddedQuotes: EquityQuotesProvider = {
  name: "embedded",
  async getQuotes(tickers) {
    const s = recordedPerpSnapshot();
    const held = s.equityQuotes ?? {};
    const quotes = new Map(tickers.flatMap((t) => (held[t] ? [[t, held[t]] as const] : [])));
    return { as_of: s.provenance.recorded_at, quotes };
  },
};

type FiscalDataDoc = { data: (Omit<TreasuryRateRow, "src_line_nbr"> & { record_date: string; src_line_nbr: string })[] };

/** The latest record_date's rows of a Fiscal Data avg_interest_rates answer, in source line order. */
export function latestTreasuryRows(doc: FiscalDataDoc): { record_date: string | null; rows: TreasuryRateRow[] } {
  if (!doc || !Array.isArray(doc.data))
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "treasury avg_interest_rates has an unexpected shape" });
  const latest = doc.data.reduce<string | null>((m, r) => (m === null || r.record_date > m ? r.record_date : m), null);
  const rows = doc.data
    .filter((r) => r.record_date === latest)
    .map((r) => ({
      security_type_desc: r.security_type_desc,
      security_desc: r.security_desc,
      avg_interest_rate_amt: r.avg_interest_rate_amt,
      src_line_nbr: Number(r.src_line_nbr),
    }))
    .sort((a, b) => a.src_line_nbr - b.src_line_nbr);
  return { record_date: latest, rows };
}

export const embeddedRates: RatesProvider = {
  name: "embedded",
  async getLatestAvgInterestRates() {
    const doc = cached("treasury", () => dataFile<FiscalDataDoc>("treasury/avg-interest-rates.json"));
    // The snapshot's retrieval time is not known precisely, so as_of is null (the spec allows it here).
    return { ...latestTreasuryRows(doc), as_of: null };
  },
};

export function embeddedProviders(): MarketProviders {
  return { kind: "embedded", aggregates: embeddedAggregates, quotes: embeddedQuotes, perps: embeddedPerps, rates: embeddedRates };
}
