// The series operation live, against FRED's and BLS's recorded replies (data/recorded/fred, data/recorded/bls) served
// by a local HTTP server: which source answers, what is asked of it, its values (the shipped files' own), and each
// documented error reply mapped to a clear error. Never the network.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../../errors";
import type { LiveConfig } from "../../providers/types";
import { economySeriesResponse } from "./contract";
import { liveSeries } from "./live-series";
import type { SeriesRequest } from "./series-answer";

const recorded = (rel: string) => fs.readFileSync(path.join(process.cwd(), "data/recorded", rel), "utf8");
const KEY = "fred-test-key-0123456789abcdef";
type Seen = { method: string; path: string; query: URLSearchParams; body: Record<string, unknown> | null };
let seen: Seen[] = [];
let server: http.Server;
let base = "";

// The replay: FRED by endpoint, series id and real-time day (the days recorded); BLS by its key (a spent one answers
// BLS's quota refusal). A request nothing recorded answers 404 `not recorded`, so an unexpected request fails loudly.
function reply(req: Seen): { status: number; body: string } | "hang" {
  const q = req.query;
  const id = q.get("series_id");
  if (req.path.startsWith("/fred/")) {
    if (q.get("api_key") !== KEY) return { status: 400, body: recorded("fred/error-api-key-not-registered.json") };
    if (id === "DOWN") return { status: 500, body: "{}" };
    if (id === "SLOW") return "hang";
    if (id === "NOPE") return { status: 400, body: recorded("fred/error-series-does-not-exist.json") };
    const day = q.get("realtime_start");
    if (req.path === "/fred/series" && (id === "UNRATE" || id === "PAYEMS")) return { status: 200, body: recorded(`fred/series-${id}.json`) };
    if (req.path === "/fred/series/vintagedates" && id === "PAYEMS") return { status: 200, body: recorded("fred/series-vintagedates-PAYEMS-2019-2020.json") };
    if (req.path === "/fred/series/observations") {
      if (id === "UNRATE" && (day === null || day === "2026-03-30")) return { status: 200, body: recorded("fred/series-observations-UNRATE-20260330.json") };
      if (id === "PAYEMS" && day === "2020-05-11") return { status: 200, body: recorded("fred/series-observations-PAYEMS-realtime-20200511.json") };
    }
  }
  if (req.method === "POST" && req.path === "/bls/timeseries/data/") {
    if (req.body?.registrationkey === "spent-key") return { status: 200, body: recorded("bls/error-daily-threshold.json") };
    return { status: 200, body: recorded("bls/timeseries-data-LNS14000000-CES0000000001.json") };
  }
  return { status: 404, body: JSON.stringify({ error: "not recorded" }) };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const url = new URL(req.url!, "http://x");
      const s: Seen = { method: req.method!, path: url.pathname, query: url.searchParams, body: raw ? JSON.parse(raw) : null };
      seen.push(s);
      const r = reply(s);
      if (r === "hang") return;
      res.writeHead(r.status, { "content-type": "application/json" }).end(r.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
beforeEach(() => {
  seen = [];
});

const cfg = (settings: Record<string, string | undefined> = {}): LiveConfig => ({
  ...{ massiveBaseUrl: base, massiveApiKey: "k", treasuryBaseUrl: base, hyperliquidBaseUrl: base, timeoutMs: 300, retries: 1, backoffMs: 5 },
  settings: { FRED_BASE_URL: `${base}/fred`, FRED_API_KEY: KEY, BLS_BASE_URL: `${base}/bls`, ...settings },
});
const NOW = () => new Date("2026-03-30T16:00:00Z");
const ask = (req: Partial<SeriesRequest> & { id: string }, settings?: Record<string, string | undefined>) =>
  liveSeries(cfg(settings), NOW).series({ limit: 1000, sort: "asc", ...req });
const fileRows = (file: string, from: string) =>
  fs
    .readFileSync(path.join(process.cwd(), "data/economy/series", file), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","))
    .filter(([d]) => d! >= from)
    .map(([d, v]) => [d, v === "" ? null : Number(v)]);

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return { status: (e as AppError).status, ...(e as AppError).toBody() };
}

describe("FRED", () => {
  it("answers the latest values with FRED's metadata and the agency as source; the values are the shipped file's", async () => {
    // A window of more than ten years: FRED's to answer (BLS serves ten a request without a key). The recorded reply
    // begins 2025-06-01; the replay answers any start with it.
    const a = await ask({ id: "UNRATE", start: "2015-06-01" });
    expect(economySeriesResponse.safeParse(a).error).toBeUndefined();
    expect(a).toMatchObject({
      source: "bls",
      distributor: "fred",
      title: "Unemployment Rate",
      units: "Percent",
      seasonal_adjustment: "Seasonally Adjusted",
      as_of: "2026-03-30T16:00:00.000Z",
      realtime: { as_of: null, vintage_date: null, basis: "live" },
      coverage: null,
      publication_dates: { held: false },
    });
    expect(a.observations.map((o) => [o.date, o.value])).toEqual(fileRows("UNRATE.csv", "2025-06-01"));
    const obs = seen.find((s) => s.path === "/fred/series/observations")!.query;
    expect(Object.fromEntries(obs)).toEqual({
      series_id: "UNRATE",
      api_key: KEY,
      file_type: "json",
      observation_start: "2015-06-01",
      sort_order: "asc",
      limit: "1000",
    });
    expect(seen.map((s) => s.path).sort()).toEqual(["/fred/series", "/fred/series/observations"]);
  });

  it("newest first and limited, with has_more from FRED's count", async () => {
    const a = await ask({ id: "UNRATE", sort: "desc", limit: 2 });
    expect(a.observations.map((o) => o.date)).toEqual(["2026-02-01", "2026-01-01"]);
    expect(a.has_more).toBe(true);
  });

  it("as_of: the vintage in effect (series/vintagedates) and ALFRED's values that day (realtime_start = realtime_end)", async () => {
    const a = await ask({ id: "PAYEMS", start: "2019-06-01", asOf: "2020-05-11" });
    expect(a).toMatchObject({ as_of: "2020-05-11", realtime: { as_of: "2020-05-11", vintage_date: "2020-05-11", basis: "live" } });
    expect(a.observations.at(-1)).toEqual({ date: "2020-04-01", value: 131045, published: null });
    const obs = seen.find((s) => s.path === "/fred/series/observations")!.query;
    expect([obs.get("realtime_start"), obs.get("realtime_end")]).toEqual(["2020-05-11", "2020-05-11"]);
    const vd = seen.find((s) => s.path === "/fred/series/vintagedates")!.query;
    expect([vd.get("realtime_end"), vd.get("sort_order"), vd.get("limit")]).toEqual(["2020-05-11", "desc", "1"]);
  });

  it("as_of before the series' first vintage: 403 vintage_not_included, and no values are asked for", async () => {
    expect(await refusal(ask({ id: "PAYEMS", asOf: "2019-07-01" }))).toMatchObject({ status: 403, error: "not_included", reason: "vintage_not_included" });
    expect(seen.map((s) => s.path)).toEqual(["/fred/series/vintagedates"]);
  });

  it("an id FRED does not know: 404 not_found naming it", async () => {
    expect(await refusal(ask({ id: "NOPE" }))).toMatchObject({ status: 404, error: "not_found", reason: "unknown_series", series_id: "NOPE" });
  });

  it("a key FRED refuses, or none: 502 naming FRED_API_KEY, the key never in the error", async () => {
    const bad = await refusal(ask({ id: "UNRATE" }, { FRED_API_KEY: "not-registered-key-0000" }));
    expect(bad).toMatchObject({ status: 502, error: "upstream_unavailable", reason: "provider_not_configured" });
    expect(JSON.stringify(bad)).not.toContain("not-registered-key-0000");
    expect(await refusal(ask({ id: "UNRATE" }, { FRED_API_KEY: undefined }))).toMatchObject({ status: 502, detail: expect.stringContaining("FRED_API_KEY") });
  });

  it("FRED failing: 502 after its retries; FRED silent: 504; the key redacted", async () => {
    const down = await refusal(ask({ id: "DOWN" }));
    expect(down).toMatchObject({ status: 502, error: "upstream_unavailable", reason: "provider_error" });
    expect(JSON.stringify(down)).not.toContain(KEY);
    expect(seen.filter((s) => s.query.get("series_id") === "DOWN").length).toBeGreaterThanOrEqual(2);
    expect(await refusal(ask({ id: "SLOW" }))).toMatchObject({ status: 504, error: "upstream_timeout" });
  });
});

describe("BLS", () => {
  it("answers a BLS series' latest values itself when one request covers the window: its own id, whole years, no key", async () => {
    const a = await ask({ id: "UNRATE", start: "2025-01-01", end: "2026-02-01" });
    expect(economySeriesResponse.safeParse(a).error).toBeUndefined();
    expect(a).toMatchObject({ source: "bls", distributor: "bls", title: "Unemployment Rate", realtime: { basis: "live" } });
    // BLS leaves out the month it did not publish (2025-10); FRED lists it without a value.
    expect(a.observations.map((o) => [o.date, o.value])).toEqual(fileRows("UNRATE.csv", "2025-01-01").filter(([, v]) => v !== null));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body).toEqual({ seriesid: ["LNS14000000"], startyear: "2025", endyear: "2026" });
    expect(a.notes[0]).toMatch(/BLS series LNS14000000/);
  });

  it("PAYEMS is CES0000000001; BLS_API_KEY goes as registrationkey and widens the window to 20 years", async () => {
    const a = await ask({ id: "PAYEMS", start: "2010-01-01", end: "2026-02-01" }, { BLS_API_KEY: "bls-key-abc" });
    expect(a.distributor).toBe("bls");
    expect(a.observations.at(-1)).toEqual({ date: "2026-02-01", value: 158466, published: null });
    expect(seen[0]!.body).toMatchObject({ seriesid: ["CES0000000001"], startyear: "2010", registrationkey: "bls-key-abc" });
  });

  it("a window BLS cannot serve in one request, no start, or an as_of goes to FRED", async () => {
    expect((await ask({ id: "UNRATE", start: "2000-01-01" })).distributor).toBe("fred");
    expect((await ask({ id: "UNRATE" })).distributor).toBe("fred");
    expect(seen.every((s) => s.path.startsWith("/fred/"))).toBe(true);
  });

  it("BLS's quota refusal (HTTP 200, REQUEST_NOT_PROCESSED): 502 provider_rate_limited, the key redacted", async () => {
    const r = await refusal(ask({ id: "UNRATE", start: "2025-01-01" }, { BLS_API_KEY: "spent-key" }));
    expect(r).toMatchObject({ status: 502, error: "upstream_unavailable", reason: "provider_rate_limited" });
    expect(JSON.stringify(r)).not.toContain("spent-key");
  });
});
