// The live adapters against recorded, real-shaped responses served by a local HTTP server (Hyperliquid and
// the basis quotes from the test-only shape fixture, server/market/test/fixtures).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aggregatesResponse, avgInterestRatesResponse, basisResponse } from "../../contracts/market";
import { getAggregates } from "../aggregates/get-aggregates";
import { getBasis } from "../basis/get-basis";
import { getAvgInterestRates } from "../rates/get-avg-interest-rates";
import { loadBasisShapeFixture } from "../test/basis-replay";
import { liveProviders, type LiveConfig } from "./live";

const rec = (f: string) => fs.readFileSync(path.join(process.cwd(), "data/market/recorded", f), "utf8");
// Hyperliquid perps and basis quotes: the test-only shape fixture (invented values in the vendors' shapes).
const snapshot = loadBasisShapeFixture();
const treasury = fs.readFileSync(path.join(process.cwd(), "data/market/treasury/avg-interest-rates.json"), "utf8");

type Seen = { method: string; url: string; body: string };
let seen: Seen[] = [];
/** Scripted failures, consumed in order, before the recorded answer. */
let failures: { status: number; body?: string; delayMs?: number }[] = [];
let server: http.Server;
let base = "";

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
      if (url.pathname === "/v2/aggs/ticker/AAPL/range/1/day/2020-01-02/2020-01-03") return send(200, rec("massive-aggs-aapl-1-day.json"));
      if (url.pathname.startsWith("/v2/aggs/ticker/AAPL/range/1/minute/")) return send(403, rec("massive-not-authorized.json"));
      if (url.pathname.startsWith("/v2/aggs/ticker/ZZZZQ/")) return send(200, rec("massive-aggs-empty.json"));
      if (url.pathname === "/v3/reference/tickers/ZZZZQ") return send(404, rec("massive-ticker-not-found.json"));
      if (url.pathname.startsWith("/v2/aggs/ticker/")) {
        // Quotes for the basis screen: two daily bars per ticker from the snapshot's quotes.
        const t = url.pathname.split("/")[4]!;
        const q = snapshot.equityQuotes[t];
        if (!q) return send(200, JSON.stringify({ ticker: t, resultsCount: 0, status: "OK", adjusted: true }));
        const bar = (c: number, t: number) => ({ o: c, h: c, l: c, c, v: 1000, vw: c, n: 10, t });
        return send(200, JSON.stringify({ ticker: t, resultsCount: 2, status: "OK", adjusted: true, results: [bar(q.prev_close, 1755230400000), bar(q.price, 1755489600000)] }));
      }
      if (url.pathname === "/services/api/fiscal_service/v2/accounting/od/avg_interest_rates") return send(200, treasury);
      if (url.pathname === "/info" && req.method === "POST") {
        const b = JSON.parse(body);
        if (b.type === "perpDexs") return send(200, JSON.stringify(snapshot.perpDexs));
        if (b.type === "metaAndAssetCtxs" && snapshot.metaAndAssetCtxs[b.dex]) return send(200, JSON.stringify(snapshot.metaAndAssetCtxs[b.dex]));
      }
      send(404, JSON.stringify({ error: "not recorded" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  failures = [];
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
const aapl = { ticker: "AAPL", multiplier: 1, timespan: "day" as const, from: "2020-01-02", to: "2020-01-03", adjusted: true, sort: "asc" as const, limit: 5000 };

describe("massive aggregates adapter", () => {
  it("maps results to price bars and passes the query through", async () => {
    const res = await getAggregates(aapl, { providers: liveProviders(cfg()) });
    expect(aggregatesResponse.parse(res)).toBeTruthy();
    expect(res.data.bars[0]).toEqual({ open: 74.06, high: 75.15, low: 73.7575, close: 75.0875, volume: 135647456, vwap: 74.6099, trade_count: 1, timestamp: "2020-01-02T05:00:00.000Z" });
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
    failures = [{ status: 200, delayMs: 1000 }, { status: 200, delayMs: 1000 }, { status: 200, delayMs: 1000 }];
    await expect(getAggregates(aapl, { providers: liveProviders(cfg()) })).rejects.toMatchObject({ code: "upstream_timeout", status: 504 });
  });
});

describe("treasury adapter", () => {
  it("keeps the latest record_date's rows in source line order", async () => {
    const res = await getAvgInterestRates({ providers: liveProviders(cfg()) });
    expect(avgInterestRatesResponse.parse(res)).toBeTruthy();
    expect(res.record_date).toBe("2025-05-31");
    expect(res.count).toBe(17);
    expect(res.rates[0]).toEqual({ security_type: "Marketable", security: "Treasury Bills", avg_interest_rate: 4.316 });
    expect(res.as_of).not.toBeNull();
    const q = new URL(seen[0]!.url, "http://x").searchParams;
    expect(q.get("sort")).toBe("-record_date,src_line_nbr");
  });
});

describe("hyperliquid adapter", () => {
  it("lists HIP-3 dexes, reads metaAndAssetCtxs per dex and keeps the US stocks", async () => {
    const res = await getBasis({ limit: 100, min_basis: 0 }, { providers: liveProviders(cfg()) });
    expect(basisResponse.parse(res)).toBeTruthy();
    expect(res.venue_map).toEqual({ xyz: "XYZ", flx: "Felix Exchange" });
    const posts = seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body));
    expect(posts).toEqual(expect.arrayContaining([{ type: "perpDexs" }, { type: "metaAndAssetCtxs", dex: "xyz" }, { type: "metaAndAssetCtxs", dex: "flx" }]));
    expect(res.rows.map((r) => r.perp_symbol)).not.toContain("xyz:GOLD");
    expect(res.rows.find((r) => r.perp_symbol === "xyz:TSLA")).toMatchObject({ equity_price: 330.56, equity_prev_close: 335.58, perp_mark: 347.8, comparable: true });
    expect(res.note).toBeNull();
  });
});

describe("massive symbols", () => {
  it("asks Massive for I:SPX when the public ticker is SPX", async () => {
    await getAggregates({ ...aapl, ticker: "SPX" }, { providers: liveProviders(cfg()) }).catch(() => undefined);
    expect(decodeURIComponent(new URL(seen[0]!.url, "http://x").pathname)).toBe("/v2/aggs/ticker/I:SPX/range/1/day/2020-01-02/2020-01-03");
  });
});
