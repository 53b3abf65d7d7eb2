// This operation's own source, in both kinds: US stock perpetuals (Hyperliquid's HIP-3 dexes) and the equity quotes
// they are compared with.
//   embedded  data/market/perps/equity-perps-snapshot.json, a recording (provenance.kind "recorded"; sources beside it)
//   live      Hyperliquid's info API (perpDexs, then metaAndAssetCtxs per HIP-3 dex), quotes from the shared bars
//             source's last two daily closes (Massive)
// The universe (which perp names are US stocks) is data/market/perps/equity-perp-tickers.json in both kinds.
import { AppError } from "../../../errors";
import { addDays, newYorkClock } from "../../lib/dates";
import { cached, dataFile, dataFileIfPresent } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import { readAssetContexts } from "../../providers/hyperliquid";
import type { AggregatesProvider, LiveConfig, ProviderFamily } from "../../providers/types";

export type EquityQuote = { price: number; prev_close: number; as_of: string };

export interface EquityQuotesProvider {
  readonly name: string;
  /** Delayed official price and previous close; tickers without a quote are absent from the map. */
  getQuotes(tickers: string[]): Promise<{ as_of: string; quotes: Map<string, EquityQuote> }>;
}

export type PerpContext = {
  dex: string;
  /** Venue symbol, e.g. "xyz:TSLA". */
  symbol: string;
  /** Bare name, e.g. "TSLA". */
  name: string;
  markPx: number | null;
  oraclePx: number | null;
  /** Hourly funding rate (fraction). */
  funding: number | null;
  /** Open interest in base units (contracts), as the venue reports it. */
  openInterest: number | null;
  dayNtlVlm: number | null;
};

/** Where recorded perp data came from and the moment it describes; live data has none. */
export type PerpsProvenance = { kind: string; source: string; as_of: string };

export interface PerpsProvider {
  readonly name: string;
  getPerps(): Promise<{ as_of: string; venues: Record<string, string>; contexts: PerpContext[]; note: string | null; provenance: PerpsProvenance | null }>;
}

/** The basis screen's source: the perps and the quotes of the same kind. */
export type BasisSources = { perps: PerpsProvider; quotes: EquityQuotesProvider };

type PerpSnapshot = {
  /** `source` names the recordings in one line; snapshots written before it existed have only the note. */
  provenance: { kind: string; recorded_at: string; source?: string; note: string };
  perpDexs: ({ name: string; fullName: string } | null)[];
  metaAndAssetCtxs: Record<string, [{ universe: { name: string; isDelisted?: boolean }[] }, Record<string, unknown>[]]>;
  equityQuotes: Record<string, { price: number; prev_close: number; as_of: string }>;
};

/** Where record-basis-snapshot.ts writes the snapshot, relative to data/. */
export const PERP_SNAPSHOT_FILE = "market/perps/equity-perps-snapshot.json";

export const NO_RECORDED_PERP_SNAPSHOT =
  "the embedded data has no recorded equity-perpetual snapshot; run with MARKET_PROVIDER=live (Hyperliquid + Massive), or record one with npx tsx server/market/operations/basis/record-basis-snapshot.ts";

/**
 * The committed equity-perp snapshot, only if it is a real recording (provenance.kind "recorded", as
 * record-basis-snapshot.ts writes it). Anything else (no file, a fixture) is data this provider does not
 * hold: 403 not_included, as a vendor answers for data outside the plan.
 */
function recordedPerpSnapshot(): PerpSnapshot {
  const s = cached("perps", () => dataFileIfPresent<PerpSnapshot>(PERP_SNAPSHOT_FILE));
  if (!s || s.provenance?.kind !== "recorded") throw new AppError("not_included", { detail: NO_RECORDED_PERP_SNAPSHOT });
  return s;
}
export const equityPerpTickers = () =>
  cached("equity-tickers", () => new Set(dataFile<{ tickers: string[] }>("market/perps/equity-perp-tickers.json").tickers));

/** Hyperliquid's metaAndAssetCtxs answer for one dex -> contexts of the perps that are US stocks. */
export function equityPerpContexts(dex: string, doc: unknown, equities: Set<string>): PerpContext[] {
  return readAssetContexts(dex, doc)
    .filter((c) => !c.isDelisted && equities.has(c.name))
    .map((c) => ({
      dex,
      symbol: c.symbol,
      name: c.name,
      markPx: c.markPx,
      oraclePx: c.oraclePx,
      funding: c.funding,
      openInterest: c.openInterest,
      dayNtlVlm: c.dayNtlVlm,
    }));
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

/** Delayed price and previous close from the aggregates provider's last two daily bars. */
export function aggregatesQuotes(aggs: AggregatesProvider, now: () => Date = () => new Date()): EquityQuotesProvider {
  return {
    name: `${aggs.name}-daily`,
    async getQuotes(tickers) {
      const today = newYorkClock(now()).date;
      const quotes = new Map<string, EquityQuote>();
      const queue = [...tickers];
      const worker = async () => {
        for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
          try {
            const bars = await aggs.getDailyBars(t, addDays(today, -10), today);
            const last = bars[bars.length - 1];
            const prev = bars[bars.length - 2];
            if (last && prev) quotes.set(t, { price: last.close, prev_close: prev.close, as_of: `${last.date}T20:00:00Z` });
          } catch (err) {
            // One missing quote makes one row non-comparable; it does not fail the screen.
            if (!(err instanceof AppError) || err.status >= 500) throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, tickers.length) }, worker));
      return { as_of: now().toISOString(), quotes };
    },
  };
}

const trim = (u: string) => u.replace(/\/+$/, "");

export function hyperliquidPerps(cfg: LiveConfig, now: () => Date = () => new Date()): PerpsProvider {
  const http = { provider: "hyperliquid", method: "POST" as const, timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs };
  const info = `${trim(cfg.hyperliquidBaseUrl)}/info`;
  return {
    name: "hyperliquid",
    async getPerps() {
      const dexRes = await fetchJson<({ name: string; fullName: string } | null)[]>(info, { ...http, body: { type: "perpDexs" } });
      if (!dexRes.ok || !Array.isArray(dexRes.body))
        throw new AppError("upstream_unavailable", { reason: "provider_error", detail: "hyperliquid perpDexs failed" });
      // The first entry is the native (non-HIP-3) dex, given as null.
      const dexes = dexRes.body.filter((d): d is { name: string; fullName: string } => !!d && typeof d.name === "string");
      const venues: Record<string, string> = {};
      const equities = equityPerpTickers();
      const contexts = (
        await Promise.all(
          dexes.map(async (d) => {
            venues[d.name] = d.fullName ?? d.name;
            // metaAndAssetCtxs is a read: retrying the POST is safe.
            const r = await fetchJson(info, { ...http, body: { type: "metaAndAssetCtxs", dex: d.name } });
            if (!r.ok)
              throw new AppError("upstream_unavailable", {
                reason: "provider_error",
                detail: `hyperliquid metaAndAssetCtxs (${d.name}) answered ${r.failure.status}`,
              });
            return equityPerpContexts(d.name, r.body, equities);
          }),
        )
      ).flat();
      return { as_of: now().toISOString(), venues, contexts, note: null, provenance: null };
    },
  };
}

export const basisSources: ProviderFamily<BasisSources> = {
  name: "equity-perps",
  embedded: () => ({ perps: embeddedPerps, quotes: embeddedQuotes }),
  live: (cfg, shared) => ({ perps: hyperliquidPerps(cfg), quotes: aggregatesQuotes(shared.aggregates) }),
};

/** The recorded snapshot's moment and the US stocks in it; null when this data root holds no recording. */
export function embeddedPerpsCoverage(): { as_of: string; tickers: string[] } | null {
  try {
    const s = recordedPerpSnapshot();
    const tickers = Object.entries(s.metaAndAssetCtxs).flatMap(([dex, doc]) => equityPerpContexts(dex, doc, equityPerpTickers()).map((c) => c.name));
    return { as_of: s.provenance.recorded_at, tickers: [...new Set(tickers)].sort() };
  } catch (err) {
    if (err instanceof AppError && err.code === "not_included") return null;
    throw err;
  }
}
