// The shared live source (MARKET_PROVIDER=live): price bars from Massive (formerly Polygon.io) /v2/aggs, MASSIVE_API_KEY.
// Operations' own live sources (Treasury Fiscal Data, Hyperliquid, ...) live in their folders and are built here by
// `family`. Vendor answers are mapped to the same errors the embedded providers give (404 unknown_ticker,
// 403 not_included); transport failures to 502 upstream_unavailable / 504 upstream_timeout.
import { AppError } from "../../errors";
import { newYorkClock } from "../lib/dates";
import { fetchJson } from "./http";
import type { AggregatesParams, AggregatesProvider, DailyBar, LiveConfig, MarketProviders, PriceBar, ProviderFamily } from "./types";

export type { LiveConfig } from "./types";

type MassiveAggs = {
  ticker?: string;
  /** Base aggregates (minute or day) Massive read to build this page. */
  queryCount?: number;
  resultsCount?: number;
  adjusted?: boolean;
  status?: string;
  message?: string;
  results?: MassiveBar[];
  /** Absolute URL of the next page, without the API key; absent on the last page. */
  next_url?: string;
};
type MassiveBar = { o: number; h: number; l: number; c: number; v: number; vw?: number; n?: number; t: number };

// Massive pages a long answer: `next_url` leads to the rest. We follow it until `limit` base bars are read
// or there is no next page, under three guards, each a 502 upstream_unavailable (invalid_response):
// - only on the configured host: the API key goes with every page, so next_url's path and query are followed
//   on MASSIVE_BASE_URL whatever host it names (Polygon-era hosts still appear in Massive's links; the
//   official client does the same), and only under /v2/aggs/, the endpoint we asked;
// - a next_url naming a page already read (a cursor that did not advance) is refused before it is fetched;
// - at most MASSIVE_MAX_PAGES pages, so a vendor minting new cursors forever cannot hold the request (with
//   `limit` at most 50000, 20 pages still reach it at 2,500 bars a page).
// An error rather than a quiet stop: fewer bars than `limit` reads as "the window holds no more", so a
// truncated answer would mislead the agent and be charged for, while a 5xx releases its payment.
const MASSIVE_MAX_PAGES = 20;
const pagingError = (detail: string) => new AppError("upstream_unavailable", { reason: "invalid_response", detail });

/** A page's identity for loop detection: the URL without our key, parameters in a fixed order. */
function pageKey(url: string): string {
  const u = new URL(url);
  u.searchParams.delete("apiKey");
  u.searchParams.sort();
  return u.href;
}

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

  /** One page, through fetchJson's timeout and retries, with the vendor's answers mapped to our errors. */
  async function fetchAggsPage(url: string, p: AggregatesParams, page: number): Promise<MassiveAggs> {
    const res = await fetchJson<MassiveAggs>(url, http);
    if (res.ok) return res.body;
    const { status, body } = res.failure;
    const msg = vendorMessage(body);
    // Past page 1 the ticker is known to exist: a 4xx there is the vendor's cursor failing, not the caller's
    // request, so it is a 502 (nothing charged), never a 404 unknown_ticker.
    if (page > 1 && status < 500) throw pagingError(`massive answered ${status} for page ${page} of its own next_url`);
    if (status === 403)
      throw new AppError("not_included", {
        reason: "plan_not_included",
        detail: msg ?? "the data vendor's plan does not include this request",
        extra: { ticker: p.ticker },
      });
    if (status === 404) throw new AppError("unknown_ticker", { detail: `${p.ticker} is not a known ticker`, extra: { ticker: p.ticker } });
    if (status === 400) throw new AppError("invalid_request", { reason: "rejected_by_provider", detail: msg ?? "the data vendor rejected the request" });
    throw new AppError("upstream_unavailable", {
      reason: "provider_error",
      detail: `massive answered ${status}${status === 401 ? " (check MASSIVE_API_KEY)" : ""}`,
    });
  }

  /** The URL to fetch for `next`, with the key added, after the guards above. */
  function nextPageUrl(next: string, base: string, pagesRead: number, read: Set<string>): string {
    let link: URL;
    try {
      link = new URL(next);
    } catch {
      throw pagingError("massive's next_url is not an absolute URL");
    }
    if (!link.pathname.startsWith("/v2/aggs/")) throw pagingError("massive's next_url leads away from the aggregates endpoint; not followed");
    // Path and query on our own base URL: the key never reaches a host we were not configured with.
    const u = new URL(`${base}${link.pathname}${link.search}`);
    if (read.has(pageKey(u.href))) throw pagingError("massive's next_url repeats a page already read");
    if (pagesRead >= MASSIVE_MAX_PAGES) throw pagingError(`massive still had a next page after ${MASSIVE_MAX_PAGES} pages`);
    // The same authentication as the first page: the key as the apiKey query parameter. Appended rather
    // than re-serialising the query, so the vendor's cursor reaches it byte for byte.
    if (u.searchParams.has("apiKey")) u.searchParams.set("apiKey", cfg.massiveApiKey);
    else u.search = `${u.search ? `${u.search}&` : "?"}apiKey=${encodeURIComponent(cfg.massiveApiKey)}`;
    return u.href;
  }

  async function getAggregates(p: AggregatesParams): Promise<{ bars: PriceBar[]; adjusted: boolean }> {
    const qs = new URLSearchParams({ adjusted: String(p.adjusted), sort: p.sort, limit: String(p.limit), apiKey: cfg.massiveApiKey });
    let url = `${trim(cfg.massiveBaseUrl)}/v2/aggs/ticker/${encodeURIComponent(massiveSymbol(p.ticker))}/range/${p.multiplier}/${p.timespan}/${p.from}/${p.to}?${qs}`;
    const base = new URL(trim(cfg.massiveBaseUrl)).origin;
    const read = new Set<string>();
    const results: MassiveBar[] = [];
    let baseBars = 0;
    let adjusted: boolean | undefined;
    for (let page = 1; ; page++) {
      read.add(pageKey(url));
      const body = await fetchAggsPage(url, p, page);
      const rows = body.results ?? [];
      for (const r of rows) results.push(r); // not push(...rows): a page may hold 50000 bars, too many arguments
      // queryCount is the base bars behind the page (several per bar for wide buckets); each bar is at least one.
      baseBars += Math.max(rows.length, typeof body.queryCount === "number" ? body.queryCount : 0);
      adjusted ??= body.adjusted;
      if (baseBars >= p.limit || typeof body.next_url !== "string" || body.next_url === "") break;
      url = nextPageUrl(body.next_url, base, page, read);
    }
    // Massive answers an unknown ticker with 200 and no results; its reference endpoint tells the two apart.
    if (results.length === 0 && !(await tickerExists(p.ticker)))
      throw new AppError("unknown_ticker", { detail: `${p.ticker} is not a known ticker`, extra: { ticker: p.ticker } });
    // A later page may overshoot `limit`; a bar stands for at least one base bar, so never more than `limit` bars.
    const bars = results.slice(0, p.limit).map((r) => ({
      open: r.o,
      high: r.h,
      low: r.l,
      close: r.c,
      volume: r.v,
      vwap: typeof r.vw === "number" ? r.vw : null,
      trade_count: typeof r.n === "number" ? r.n : null,
      timestamp: Number.isFinite(r.t) ? new Date(r.t).toISOString() : null,
    }));
    return { bars, adjusted: adjusted ?? p.adjusted };
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

/** The live set: the shared bars, and each operation's own live source on first use. */
export function liveProviders(cfg: LiveConfig): MarketProviders {
  const shared = { aggregates: massiveAggregates(cfg) };
  const built = new Map<ProviderFamily<unknown>, unknown>();
  return {
    kind: "live",
    ...shared,
    family<P>(f: ProviderFamily<P>): P {
      if (!built.has(f)) built.set(f, f.live(cfg, shared));
      return built.get(f) as P;
    },
  };
}
