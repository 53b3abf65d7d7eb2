// Tests only: the equity-perp SHAPE fixture (invented values, never served as data) and a local node:http
// server that replays it the way the live vendors answer: Hyperliquid's info API (POST /info perpDexs,
// metaAndAssetCtxs per HIP-3 dex) and Massive's daily aggregates (two bars per ticker: prev_close, price).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export const BASIS_SHAPE_FIXTURE = path.join(import.meta.dirname, "fixtures", "equity-perps-shape-fixture.json");

export type BasisShapeFixture = {
  provenance: { kind: string; recorded_at: string; note: string };
  perpDexs: ({ name: string; fullName: string } | null)[];
  metaAndAssetCtxs: Record<string, unknown>;
  equityQuotes: Record<string, { price: number; prev_close: number; as_of: string }>;
};

export function loadBasisShapeFixture(): BasisShapeFixture {
  return JSON.parse(fs.readFileSync(BASIS_SHAPE_FIXTURE, "utf8")) as BasisShapeFixture;
}

export type ReplayRequest = { method: string; url: string; body: string };

/** Massive's answer for one ticker: the quote as two daily bars (prev_close, then price), or no results. */
export function massiveDailyBarsFor(ticker: string, fixture: BasisShapeFixture): string {
  const q = fixture.equityQuotes[ticker];
  if (!q) return JSON.stringify({ ticker, queryCount: 0, resultsCount: 0, adjusted: true, status: "OK" });
  const bar = (c: number, t: number) => ({ v: 1000, vw: c, o: c, c, h: c, l: c, t, n: 10 });
  // 2025-08-14 and 2025-08-15 (00:00 America/New_York), the sessions before the fixture's time.
  return JSON.stringify({
    ticker,
    queryCount: 2,
    resultsCount: 2,
    adjusted: true,
    status: "OK",
    results: [bar(q.prev_close, 1755144000000), bar(q.price, 1755230400000)],
  });
}

/** Start the replay server on 127.0.0.1 (a free port). Every request is kept in `seen`. */
export async function startBasisReplayServer(): Promise<{ base: string; seen: ReplayRequest[]; close(): Promise<void> }> {
  const fixture = loadBasisShapeFixture();
  const seen: ReplayRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const url = new URL(req.url!, "http://x");
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(typeof payload === "string" ? payload : JSON.stringify(payload));
      if (url.pathname === "/info" && req.method === "POST") {
        let b: { type?: string; dex?: string } = {};
        try {
          b = JSON.parse(body);
        } catch {
          return send(422, "Failed to deserialize the JSON body");
        }
        if (b.type === "perpDexs") return send(200, fixture.perpDexs);
        if (b.type === "metaAndAssetCtxs" && b.dex && fixture.metaAndAssetCtxs[b.dex]) return send(200, fixture.metaAndAssetCtxs[b.dex]);
        return send(422, "Failed to deserialize the JSON body");
      }
      const aggs = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/day\//.exec(url.pathname);
      if (req.method === "GET" && aggs) return send(200, massiveDailyBarsFor(decodeURIComponent(aggs[1]!), fixture));
      const ref = /^\/v3\/reference\/tickers\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && ref)
        return send(200, { request_id: "replay", status: "OK", results: { ticker: decodeURIComponent(ref[1]!), market: "stocks", active: true } });
      send(404, { status: "NOT_FOUND", message: "not replayed" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
