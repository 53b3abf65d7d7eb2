// The shared live source (Massive's aggregates) against recorded, real-shaped responses served by a local HTTP server
// (daily closes from the committed equity-perp snapshot, data/market/perps, replayed as Massive answers; next_url paging
// from pages scripted per test in the documented shape). The operations' own live sources are tested in their folders.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aggregatesResponse } from "../operations/aggregates/contract";
import { getAggregates } from "../operations/aggregates/get-aggregates";
import { loadRecordedBasisSnapshot, massiveDailyBarsFor } from "../test/basis-replay";
import { liveProviders, type LiveConfig } from "./live";

const rec = (f: string) => fs.readFileSync(path.join(process.cwd(), "data/market/recorded", f), "utf8");
// Daily closes for quotes: the committed snapshot (real recordings, data/market/perps/SOURCES.md).
const snapshot = loadRecordedBasisSnapshot();

type Seen = { method: string; url: string; body: string };
let seen: Seen[] = [];
/** Scripted failures, consumed in order, before the recorded answer. */
let failures: { status: number; body?: string; delayMs?: number }[] = [];
/** Scripted Massive pages for the paging tests: answers a request, or undefined to fall through. */
let pages: ((url: URL) => { status?: number; body: unknown } | undefined) | undefined;
let server: http.Server;
let base = "";
/** A second origin (another port): the paging tests check that the key never reaches it. */
let foreign: http.Server;
let foreignBase = "";
let foreignSeen: string[] = [];

const API_KEY = "test-massive-key-secret";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const f = failures.shift();
      if (f) {
        if (f.delayMs) await new Promise((r) => setTimeout(r, f.delayMs));
        if (res.destroyed) return;
        res.writeHead(f.status, { "content-type": "application/json" }).end(f.body ?? JSON.stringify({ status: "ERROR", message: "scripted" }));
        return;
      }
      const url = new URL(req.url!, "http://x");
      const send = (status: number, text: string) => res.writeHead(status, { "content-type": "application/json" }).end(text);
      const page = pages?.(url);
      if (page) return send(page.status ?? 200, JSON.stringify(page.body));
      if (url.pathname === "/v2/aggs/ticker/AAPL/range/1/day/2020-01-02/2020-01-03") return send(200, rec("massive-aggs-aapl-1-day.json"));
      if (url.pathname.startsWith("/v2/aggs/ticker/AAPL/range/1/minute/")) return send(403, rec("massive-not-authorized.json"));
      if (url.pathname.startsWith("/v2/aggs/ticker/ZZZZQ/")) return send(200, rec("massive-aggs-empty.json"));
      if (url.pathname === "/v3/reference/tickers/ZZZZQ") return send(404, rec("massive-ticker-not-found.json"));
      // Quotes for the basis screen: each ticker's two closes as Massive daily bars.
      if (url.pathname.startsWith("/v2/aggs/ticker/")) return send(200, massiveDailyBarsFor(url.pathname.split("/")[4]!, snapshot));
      send(404, JSON.stringify({ error: "not recorded" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  foreign = http.createServer((req, res) => {
    foreignSeen.push(req.url!);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "OK", queryCount: 0, resultsCount: 0, results: [] }));
  });
  await new Promise<void>((r) => foreign.listen(0, "127.0.0.1", r));
  foreignBase = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => foreign.close(() => r()));
});
beforeEach(() => {
  seen = [];
  failures = [];
  pages = undefined;
  foreignSeen = [];
});

const cfg = (): LiveConfig => ({
  massiveBaseUrl: base,
  massiveApiKey: API_KEY,
  treasuryBaseUrl: `${base}/services/api/fiscal_service`,
  hyperliquidBaseUrl: base,
  timeoutMs: 300,
  retries: 2,
  backoffMs: 5,
});
const aapl = {
  ticker: "AAPL",
  multiplier: 1,
  timespan: "day" as const,
  from: "2020-01-02",
  to: "2020-01-03",
  adjusted: true,
  sort: "asc" as const,
  limit: 5000,
};

describe("massive aggregates adapter", () => {
  it("maps results to price bars and passes the query through", async () => {
    const res = await getAggregates(aapl, { providers: liveProviders(cfg()) });
    expect(aggregatesResponse.parse(res)).toBeTruthy();
    expect(res.data.bars[0]).toEqual({
      open: 74.06,
      high: 75.15,
      low: 73.7575,
      close: 75.0875,
      volume: 135647456,
      vwap: 74.6099,
      trade_count: 1,
      timestamp: "2020-01-02T05:00:00.000Z",
    });
    const q = new URL(seen[0]!.url, "http://x").searchParams;
    expect([q.get("adjusted"), q.get("sort"), q.get("limit"), q.get("apiKey")]).toEqual(["true", "asc", "5000", API_KEY]);
  });

  it("maps the vendor's 403 to not_included and an unknown ticker to 404, without leaking the key", async () => {
    const p = liveProviders(cfg());
    const err = await getAggregates({ ...aapl, timespan: "minute" }, { providers: p }).catch((e) => e);
    expect(err).toMatchObject({ code: "not_included", status: 403 });
    expect(JSON.stringify(err.toBody())).not.toContain(API_KEY);
    await expect(getAggregates({ ...aapl, ticker: "ZZZZQ" }, { providers: p })).rejects.toMatchObject({ code: "unknown_ticker", status: 404 });
  });

  it("retries 5xx and 429 with backoff, then succeeds", async () => {
    failures = [{ status: 502 }, { status: 429 }];
    const res = await getAggregates(aapl, { providers: liveProviders(cfg()) });
    expect(res.data.count).toBe(2);
    expect(seen).toHaveLength(3);
  });

  it("gives up after the retries with 502 upstream_unavailable, and times out with 504", async () => {
    failures = [{ status: 500 }, { status: 500 }, { status: 500 }];
    const err = await getAggregates(aapl, { providers: liveProviders(cfg()) }).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502 });
    expect(err.detail).not.toContain(API_KEY);
    failures = [
      { status: 200, delayMs: 1000 },
      { status: 200, delayMs: 1000 },
      { status: 200, delayMs: 1000 },
    ];
    await expect(getAggregates(aapl, { providers: liveProviders(cfg()) })).rejects.toMatchObject({ code: "upstream_timeout", status: 504 });
  });
});

// Paging in Massive's shape: `next_url` is absolute, carries a `cursor` and no key, and the next page's
// `from` is the millisecond timestamp after the last bar read (as Massive writes it).
const PAGED = "/v2/aggs/ticker/AAPL/range/1/day/2020-01-02/2020-01-10";
const day = (i: number) => Date.UTC(2020, 0, 2 + i, 5);
const bar = (i: number) => ({ v: 1000 + i, vw: 70 + i, o: 70 + i, c: 71 + i, h: 72 + i, l: 69 + i, t: day(i), n: 10 });
const aggsPage = (days: number[], next?: string, extra: Record<string, unknown> = {}) => ({
  body: {
    ticker: "AAPL",
    queryCount: days.length,
    resultsCount: days.length,
    adjusted: true,
    results: days.map(bar),
    status: "OK",
    request_id: "r",
    count: days.length,
    ...(next ? { next_url: next } : {}),
    ...extra,
  },
});
const nextUrl = (origin: string, fromDay: number, cursor: string) => `${origin}/v2/aggs/ticker/AAPL/range/1/day/${day(fromDay)}/2020-01-10?cursor=${cursor}`;
const paged = { ...aapl, to: "2020-01-10" };
const stamps = (bars: { timestamp: string | null }[]) => bars.map((b) => b.timestamp);
const keyOf = (s: Seen) => new URL(s.url, "http://x").searchParams.get("apiKey");

describe("massive aggregates paging (next_url)", () => {
  it("joins the pages in order", async () => {
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0, 1], nextUrl(base, 2, "bGltaXQ9NTAwMCZzb3J0PWFzYw"));
      if (u.pathname === `/v2/aggs/ticker/AAPL/range/1/day/${day(2)}/2020-01-10`) return aggsPage([2, 3, 4]);
    };
    const res = await getAggregates(paged, { providers: liveProviders(cfg()) });
    expect(aggregatesResponse.parse(res)).toBeTruthy();
    expect(stamps(res.data.bars)).toEqual([0, 1, 2, 3, 4].map((i) => new Date(day(i)).toISOString()));
    expect(res.data.count).toBe(5);
    expect(seen).toHaveLength(2);
    // The cursor reaches the vendor as it wrote it.
    expect(new URL(seen[1]!.url, "http://x").searchParams.get("cursor")).toBe("bGltaXQ9NTAwMCZzb3J0PWFzYw");
  });

  it("sends the API key again on the follow-up request, retries included", async () => {
    let page2Hits = 0;
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0, 1], nextUrl(base, 2, "c2"));
      if (u.searchParams.get("cursor") === "c2") return ++page2Hits === 1 ? { status: 503, body: { status: "ERROR", message: "busy" } } : aggsPage([2]);
    };
    const res = await getAggregates(paged, { providers: liveProviders(cfg()) });
    expect(res.data.count).toBe(3);
    expect(seen).toHaveLength(3);
    expect(seen.map(keyOf)).toEqual([API_KEY, API_KEY, API_KEY]);
  });

  it("stops at limit on page 1 without fetching page 2, and trims a later page's overshoot", async () => {
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0, 1], nextUrl(base, 2, "c2"));
      if (u.searchParams.get("cursor") === "c2") return aggsPage([2, 3, 4]);
    };
    const p = liveProviders(cfg());
    expect((await getAggregates({ ...paged, limit: 2 }, { providers: p })).data.count).toBe(2);
    expect(seen).toHaveLength(1);

    seen = [];
    const res = await getAggregates({ ...paged, limit: 4 }, { providers: p });
    expect(stamps(res.data.bars)).toEqual([0, 1, 2, 3].map((i) => new Date(day(i)).toISOString()));
    expect(seen).toHaveLength(2);
  });

  it("counts base bars by queryCount when a bar is a wider bucket", async () => {
    // One weekly bar built from five daily base bars: limit 5 is reached on page 1.
    pages = (u) => {
      if (u.pathname === "/v2/aggs/ticker/AAPL/range/1/week/2020-01-02/2020-01-10")
        return aggsPage([0], `${base}/v2/aggs/ticker/AAPL/range/1/week/${day(7)}/2020-01-10?cursor=w2`, { queryCount: 5 });
      if (u.searchParams.get("cursor") === "w2") return aggsPage([7]);
    };
    const res = await getAggregates({ ...paged, timespan: "week", limit: 5 }, { providers: liveProviders(cfg()) });
    expect(res.data.count).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it("refuses a next_url that repeats a page already read, before fetching it", async () => {
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0], nextUrl(base, 1, "c2"));
      // Page 2 points back at page 1 (without the key, parameters in another order).
      if (u.searchParams.get("cursor") === "c2") return aggsPage([1], `${base}${PAGED}?limit=5000&sort=asc&adjusted=true`);
    };
    const err = await getAggregates(paged, { providers: liveProviders(cfg()) }).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502, reason: "invalid_response" });
    expect(err.detail).toMatch(/repeats a page/);
    expect(seen).toHaveLength(2);
  });

  it("stops after 20 pages when the vendor keeps minting new cursors", async () => {
    pages = (u) => {
      if (!u.pathname.startsWith("/v2/aggs/ticker/AAPL/range/1/day/")) return undefined;
      const n = Number(u.searchParams.get("cursor") ?? 0);
      return aggsPage([n % 5], nextUrl(base, n + 1, String(n + 1)));
    };
    const err = await getAggregates(paged, { providers: liveProviders(cfg()) }).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502, reason: "invalid_response" });
    expect(err.detail).toMatch(/after 20 pages/);
    expect(seen).toHaveLength(20);
  });

  it("follows a next_url naming another host on the configured host only, so the key never goes there", async () => {
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0, 1], nextUrl(foreignBase, 2, "c2"));
      if (u.searchParams.get("cursor") === "c2") return aggsPage([2, 3]);
      return undefined;
    };
    const res = await getAggregates(paged, { providers: liveProviders(cfg()) });
    expect(res.data.bars).toHaveLength(4);
    expect(foreignSeen).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(keyOf(seen[1]!)).toBe(API_KEY);
  });

  it("a 4xx on a later page is the vendor's cursor failing: 502, not the caller's 404", async () => {
    pages = (u) => {
      if (u.pathname === PAGED) return aggsPage([0, 1], nextUrl("http://any.example", 2, "c2"));
      if (u.searchParams.get("cursor") === "c2") return { status: 404, body: { status: "NOT_FOUND", message: "cursor expired" } };
      return undefined;
    };
    const err = await getAggregates(paged, { providers: liveProviders(cfg()) }).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502, reason: "invalid_response" });
    expect(seen).toHaveLength(2);
  });

  it("refuses a next_url that leads away from the aggregates endpoint", async () => {
    pages = (u) => (u.pathname === PAGED ? aggsPage([0, 1], `${foreignBase}/v1/other?cursor=c2`) : undefined);
    const err = await getAggregates(paged, { providers: liveProviders(cfg()) }).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502, reason: "invalid_response" });
    expect(JSON.stringify(err.toBody())).not.toContain(API_KEY);
    expect(foreignSeen).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});

describe("massive symbols", () => {
  it("asks Massive for I:SPX when the public ticker is SPX", async () => {
    await getAggregates({ ...aapl, ticker: "SPX" }, { providers: liveProviders(cfg()) }).catch(() => undefined);
    expect(decodeURIComponent(new URL(seen[0]!.url, "http://x").pathname)).toBe("/v2/aggs/ticker/I:SPX/range/1/day/2020-01-02/2020-01-03");
  });
});
