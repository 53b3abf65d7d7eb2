// Tests only: the committed equity-perp snapshot (data/market/perps/equity-perps-snapshot.json: real third-party
// recordings, every number sourced in SOURCES.md beside it) and a local node:http server that replays it the way
// the live vendors answer: Hyperliquid's info API (POST /info perpDexs, metaAndAssetCtxs per HIP-3 dex) and
// Massive's daily aggregates (the two closes behind each quote: prev_close, then price).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { addDays, newYorkMidnightMs } from "../lib/dates";

export const RECORDED_BASIS_SNAPSHOT = path.join(import.meta.dirname, "../../../data/market/perps/equity-perps-snapshot.json");

export type RecordedBasisSnapshot = {
  provenance: { kind: string; recorded_at: string; source?: string; note: string };
  perpDexs: ({ name: string; fullName: string } | null)[];
  metaAndAssetCtxs: Record<string, unknown>;
  equityQuotes: Record<string, { price: number; prev_close: number; as_of: string }>;
};

export function loadRecordedBasisSnapshot(): RecordedBasisSnapshot {
  return JSON.parse(fs.readFileSync(RECORDED_BASIS_SNAPSHOT, "utf8")) as RecordedBasisSnapshot;
}

/** The weekday before `date`: the snapshot's two closes are consecutive sessions (2026-09-28 and 09-29). */
function previousWeekday(date: string): string {
  let d = addDays(date, -1);
  while ([0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())) d = addDays(d, -1);
  return d;
}

/**
 * Massive's answer for one ticker: its quote as two daily bars, or no results. A bar carries only its time and
 * close, the two fields the quote path reads; the recordings have no open, high, low or volume for these days,
 * and none is made up.
 */
export function massiveDailyBarsFor(ticker: string, snapshot: RecordedBasisSnapshot): string {
  const q = snapshot.equityQuotes[ticker];
  if (!q) return JSON.stringify({ ticker, queryCount: 0, resultsCount: 0, adjusted: true, status: "OK" });
  const day = q.as_of.slice(0, 10);
  const results = [
    { c: q.prev_close, t: newYorkMidnightMs(previousWeekday(day)) },
    { c: q.price, t: newYorkMidnightMs(day) },
  ];
  return JSON.stringify({ ticker, queryCount: 2, resultsCount: 2, adjusted: true, status: "OK", results });
}

export type ReplayRequest = { method: string; url: string; body: string };

/** Start the replay server on 127.0.0.1 (a free port). Every request is kept in `seen`. */
export async function startBasisReplayServer(): Promise<{ base: string; seen: ReplayRequest[]; close(): Promise<void> }> {
  const snapshot = loadRecordedBasisSnapshot();
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
        if (b.type === "perpDexs") return send(200, snapshot.perpDexs);
        if (b.type === "metaAndAssetCtxs" && b.dex && snapshot.metaAndAssetCtxs[b.dex]) return send(200, snapshot.metaAndAssetCtxs[b.dex]);
        return send(422, "Failed to deserialize the JSON body");
      }
      const aggs = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/day\//.exec(url.pathname);
      if (req.method === "GET" && aggs) return send(200, massiveDailyBarsFor(decodeURIComponent(aggs[1]!), snapshot));
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
