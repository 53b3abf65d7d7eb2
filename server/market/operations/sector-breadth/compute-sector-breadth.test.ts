// Sector breadth offline against the committed closes (data/stocks/XL*.csv) recomputed by brute force, and live against
// Massive's daily aggregates replayed from the same files: the method's every rule (window, strict above, the warm-up).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newYorkMidnightMs } from "../../lib/dates";
import { liveProviders } from "../../providers/live";
import { startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { computeSectorBreadth, smaByDate } from "./compute-sector-breadth";
import { sectorBreadthResponse } from "./contract";
import { getSectorBreadth, type SectorBreadthQuery } from "./get-sector-breadth";
import { SECTOR_ETFS, sectorClosesSource } from "./sector-closes-source";
import { failureOf as failure } from "../../test/refusals";

type Bar = { date: string; open: number; high: number; low: number; close: number; volume: number };
const bars = (ticker: string): Bar[] =>
  fs
    .readFileSync(path.join(process.cwd(), `data/stocks/${ticker}.csv`), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => {
      const [date, open, high, low, close, volume] = l.split(",");
      return { date: date!, open: Number(open), high: Number(high), low: Number(low), close: Number(close), volume: Number(volume) };
    });
const files = new Map<string, Bar[]>(SECTOR_ETFS.map((m) => [m.ticker, bars(m.ticker)]));
const offline = sectorClosesSource.embedded({} as never);
const q = (over: Partial<SectorBreadthQuery> = {}): SectorBreadthQuery => ({ window: 200, sort: "desc", limit: 30, ...over });
/** The reading of one day the slow way: each member's last `window` closes up to it, averaged. */
function bruteForce(date: string, window: number) {
  const above: string[] = [];
  let counted = 0;
  for (const [ticker, rows] of files) {
    const upTo = rows.filter((r) => r.date <= date);
    if (upTo.at(-1)?.date !== date || upTo.length < window) continue;
    counted++;
    const avg = upTo.slice(-window).reduce((s, r) => s + r.close, 0) / window;
    if (upTo.at(-1)!.close > avg) above.push(ticker);
  }
  return { above, counted };
}

describe("sector breadth offline (against the committed closes)", () => {
  it("computes each member's moving average as the mean of its last `window` closes", () => {
    const xlk = files.get("XLK")!;
    const sma = smaByDate(xlk, 200);
    expect(sma.has(xlk[198]!.date)).toBe(false);
    for (const i of [199, 400, xlk.length - 1]) {
      const mean = xlk.slice(i - 199, i + 1).reduce((s, r) => s + r.close, 0) / 200;
      expect(sma.get(xlk[i]!.date)).toBeCloseTo(mean, 9);
    }
  });

  it("matches a brute-force reading on every 25th day, and starts on the day of the 200th close", () => {
    const series = computeSectorBreadth(new Map([...files].map(([t, rows]) => [t, rows.map((r) => ({ date: r.date, close: r.close }))])), 200);
    expect(series.find((d) => d.percent_above !== null)!.date).toBe(files.get("XLB")![199]!.date);
    expect(series[198]).toEqual({ date: files.get("XLB")![198]!.date, percent_above: null, above: [], members_with_average: 0 });
    for (let i = 199; i < series.length; i += 25) {
      const d = series[i]!;
      const b = bruteForce(d.date, 200);
      expect([d.above, d.members_with_average]).toEqual([b.above, b.counted]);
      expect(d.percent_above).toBe(Math.round((10_000 * b.above.length) / b.counted) / 100);
    }
  });

  it("answers the latest 30 days with its method, members and the inputs' adjustment basis", async () => {
    const res = await getSectorBreadth(q(), offline);
    expect(sectorBreadthResponse.safeParse(res).error).toBeUndefined();
    expect(res.days[0]!.date).toBe("2026-07-10");
    expect(res.count).toBe(30);
    expect(res.first_reading_date).toBe("2023-10-18");
    expect(res.members.map((m) => m.ticker)).toEqual(["XLB", "XLC", "XLE", "XLF", "XLI", "XLK", "XLP", "XLRE", "XLU", "XLV", "XLY"]);
    expect(res.method).toContain("last 200 closes up to and including d");
    expect(res.method).toContain("left out of both counts");
    expect(res.inputs.basis).toContain("dividends applied by the source");
    expect(res.days.every((d) => d.members_with_average === 11)).toBe(true);
    const short = await getSectorBreadth(q({ window: 20, sort: "asc", limit: 1, from: "2023-01-01" }), offline);
    expect(short.first_reading_date).toBe(files.get("XLB")![19]!.date);
  });

  it("refuses a window outside the held closes (403) and from after to (400)", async () => {
    const early = await failure(getSectorBreadth(q({ to: "2022-12-30" }), offline));
    expect([early.status, early.reason]).toEqual([403, "timeframe_not_included"]);
    const backwards = await failure(getSectorBreadth(q({ from: "2025-01-02", to: "2025-01-01" }), offline));
    expect([backwards.status, backwards.extra?.parameter]).toEqual([400, "from"]);
  });

  it("its README states the coverage the files hold", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    const xlb = files.get("XLB")!;
    expect(readme).toContain(`${xlb[0]!.date} .. ${xlb.at(-1)!.date}, ${xlb.length} sessions each`);
    expect(readme).toContain(`first 200-day reading ${xlb[199]!.date}`);
  });
});

describe("sector breadth live (Massive's daily aggregates replayed from the same closes)", () => {
  let replay: RouteReplay;
  beforeAll(async () => {
    replay = await startRouteReplay((req) => {
      const m = /^\/v2\/aggs\/ticker\/([A-Z]+)\/range\/1\/day\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(req.url.pathname);
      const rows = m ? files.get(m[1]!) : undefined;
      if (!m || !rows) return undefined;
      const results = rows
        .filter((r) => r.date >= m[2]! && r.date <= m[3]!)
        .map((r) => ({ o: r.open, h: r.high, l: r.low, c: r.close, v: r.volume, t: newYorkMidnightMs(r.date) }));
      return { body: JSON.stringify({ ticker: m[1], queryCount: results.length, resultsCount: results.length, adjusted: true, status: "OK", results }) };
    });
  });
  afterAll(() => replay.close());

  it("computes the same readings from the vendor's bars, with the live basis stated", async () => {
    const providers = liveProviders({
      massiveBaseUrl: replay.base,
      massiveApiKey: "k",
      treasuryBaseUrl: "",
      hyperliquidBaseUrl: "",
      timeoutMs: 2_000,
      retries: 0,
    });
    const window = { from: "2025-06-02", to: "2025-06-30", sort: "asc" as const };
    const live = await getSectorBreadth(q(window), providers.family(sectorClosesSource));
    const held = await getSectorBreadth(q(window), offline);
    expect(live.days).toEqual(held.days);
    expect(live.inputs.basis).toContain("split-adjusted, not dividend-adjusted");
    expect(Date.parse(live.as_of!)).not.toBeNaN();
    expect(replay.seen.filter((s) => s.url.pathname.startsWith("/v2/aggs/"))).toHaveLength(11);
  });
});
