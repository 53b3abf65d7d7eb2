// The live providers (MARKET_PROVIDER=live):
//   aggregates + equity quotes  Massive (formerly Polygon.io) /v2/aggs, MASSIVE_API_KEY
//   average interest rates      US Treasury Fiscal Data v2/accounting/od/avg_interest_rates (latest record_date)
//   equity perpetuals           Hyperliquid info API: perpDexs, then metaAndAssetCtxs per HIP-3 dex
// Vendor answers are mapped to the same errors the embedded providers give (404 unknown_ticker,
// 403 not_included); transport failures to 502 upstream_unavailable / 504 upstream_timeout.
import { AppError } from "../../http/errors";
import { addDays, newYorkClock } from "../lib/dates";
import { equityPerpContexts, equityPerpTickers, latestTreasuryRows } from "./embedded";
import { fetchJson } from "./http";
import type { AggregatesParams, AggregatesProvider, DailyBar, EquityQuote, EquityQuotesProvider, MarketProviders, PerpsProvider, PriceBar, RatesProvider } from "./types";

export type LiveConfig = {
  massiveBaseUrl: string;
  massiveApiKey: string;
  treasuryBaseUrl: string;
  hyperliquidBaseUrl: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
};

type MassiveAggs = {
  ticker?: string;
  resultsCount?: number;
  adjusted?: boolean;
  status?: string;
  message?: string;
  results?: { o: number; h: number; l: number; c: number; v: number; vw?: number; n?: number; t: number }[];
};

const trim = (u: string) => u.replace(/\/+$/, "");

// Public tickers that Massive spells differently: the S&P 500 index is "SPX" here (the public ticker
// pattern has no ":") and "I:SPX" on Massive (an indices plan is needed for it).
const MASSIVE_SYMBOLS: Record<string, string> = { SPX: "I:SPX" };
const massiveSymbol = (ticker: string) => MASSIVE_SYMBOLS[ticker] ?? ticker;

export function massiveAggregates(cfg: LiveConfig): AggregatesProvider {
  const http = { provider: "massive", redact: [cfg.massiveApiKey], timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs };
  const vendorMessage = (body: unknown) => (body && typeof body === "object" && "message" in body ? String((body as { message: unknown }).message) : undefined);

  async function tickerExists(ticker: string): Promise<boolean> {
    const url = `${trim(cfg.massiveBaseUrl)}/v3/reference/tickers/${encodeURIComponent(massiveSymbol(ticker))}?apiKey=${encodeURIComponent(cfg.massiveApiKey)}`;
    const res = await fetchJson(url, http);
    return res.ok || res.failure.status !== 404;
  }

  async function getAggregates(p: AggregatesParams): Promise<{ bars: PriceBar[]; adjusted: boolean }> {
    const qs = new URLSearchParams({ adjusted: String(p.adjusted), sort: p.sort, limit: String(p.limit), apiKey: cfg.massiveApiKey });
    const url = `${trim(cfg.massiveBaseUrl)}/v2/aggs/ticker/${encodeURIComponent(massiveSymbol(p.ticker))}/range/${p.multiplier}/${p.timespan}/${p.from}/${p.to}?${qs}`;
    const res = await fetchJson<MassiveAggs>(url, http);
    if (!res.ok) {
      const { status, body } = res.failure;
      const msg = vendorMessage(body);
      if (status === 403) throw new AppError("not_included", { reason: "plan_not_included", detail: msg ?? "the data vendor's plan does not include this request", extra: { ticker: p.ticker } });
      if (status === 404) throw new AppError("unknown_ticker", { detail: `${p.ticker} is not a known ticker`, extra: { ticker: p.ticker } });
      if (status === 400) throw new AppError("invalid_request", { reason: "rejected_by_provider", detail: msg ?? "the data vendor rejected the request" });
      throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `massive answered ${status}${status === 401 ? " (check MASSIVE_API_KEY)" : ""}` });
    }
    const results = res.body.results ?? [];
    // Massive answers an unknown ticker with 200 and no results; its reference endpoint tells the two apart.
    if (results.length === 0 && !(await tickerExists(p.ticker))) throw new AppError("unknown_ticker", { detail: `${p.ticker} is not a known ticker`, extra: { ticker: p.ticker } });
    const bars = results.map((r) => ({
      open: r.o,
      high: r.h,
      low: r.l,
      close: r.c,
      volume: r.v,
      vwap: typeof r.vw === "number" ? r.vw : null,
      trade_count: typeof r.n === "number" ? r.n : null,
      timestamp: Number.isFinite(r.t) ? new Date(r.t).toISOString() : null,
    }));
    return { bars, adjusted: res.body.adjusted ?? p.adjusted };
  }

  return {
    name: "massive",
    coverage: () => null,
    getAggregates,
    async getDailyBars(ticker, from, to): Promise<DailyBar[]> {
      const { bars } = await getAggregates({ ticker, multiplier: 1, timespan: "day", from, to, adjusted: true, sort: "asc", limit: 50000 });
      return bars.map((b) => ({ date: newYorkClock(new Date(b.timestamp!)).date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume }));
    },
  };
}

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

export function treasuryRates(cfg: LiveConfig, now: () => Date = () => new Date()): RatesProvider {
  return {
    name: "treasury",
    async getLatestAvgInterestRates() {
      const qs = "fields=record_date,security_type_desc,security_desc,avg_interest_rate_amt,src_line_nbr&sort=-record_date,src_line_nbr&page%5Bsize%5D=100";
      const res = await fetchJson<Parameters<typeof latestTreasuryRows>[0]>(`${trim(cfg.treasuryBaseUrl)}/v2/accounting/od/avg_interest_rates?${qs}`, {
        provider: "treasury",
        timeoutMs: cfg.timeoutMs,
        retries: cfg.retries,
        backoffMs: cfg.backoffMs,
      });
      if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `treasury answered ${res.failure.status}` });
      return { ...latestTreasuryRows(res.body), as_of: now().toISOString() };
    },
  };
}

export function hyperliquidPerps(cfg: LiveConfig, now: () => Date = () => new Date()): PerpsProvider {
  const http = { provider: "hyperliquid", method: "POST" as const, timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs };
  const info = `${trim(cfg.hyperliquidBaseUrl)}/info`;
  return {
    name: "hyperliquid",
    async getPerps() {
      const dexRes = await fetchJson<({ name: string; fullName: string } | null)[]>(info, { ...http, body: { type: "perpDexs" } });
      if (!dexRes.ok || !Array.isArray(dexRes.body)) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: "hyperliquid perpDexs failed" });
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
            if (!r.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `hyperliquid metaAndAssetCtxs (${d.name}) answered ${r.failure.status}` });
            return equityPerpContexts(d.name, r.body, equities);
          }),
        )
      ).flat();
      return { as_of: now().toISOString(), venues, contexts, note: null };
    },
  };
}

export function liveProviders(cfg: LiveConfig): MarketProviders {
  const aggregates = massiveAggregates(cfg);
  return { kind: "live", aggregates, quotes: aggregatesQuotes(aggregates), perps: hyperliquidPerps(cfg), rates: treasuryRates(cfg) };
}
