// The upstream over its route handler: signed requests for all seven operations (bodies checked against
// the part 2 contracts), signature refusals, bad parameters, vendor-style errors, the backtest PNG. Basis is
// served from the committed recorded snapshot (data/market/perps) and, end to end with the live providers,
// from Hyperliquid and Massive replayed by a local HTTP server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as artifactGET } from "../../../app/artifacts/[file]/route";
import { GET } from "../../../app/upstream/market/v1/[...path]/route";
import { archiveCatalogResponse, archiveRangeResponse, archiveSnapshotResponse } from "../../contracts/archive";
import { db } from "../../db/client";
import { captureArchive } from "../archive/capture-archive";
import { deleteExpiredArtifacts } from "../artifacts/artifacts.queries";
import { archiveFeeds } from "../operations";
import { aggregatesResponse } from "../operations/aggregates/contract";
import { avgInterestRatesResponse } from "../operations/avg-interest-rates/contract";
import { backtestQuery, backtestResponse } from "../operations/backtest/contract";
import { createBacktest } from "../operations/backtest/create-backtest";
import { basisResponse, basisRow } from "../operations/basis/contract";
import { embeddedProviders } from "../providers/embedded";
import { setMarketProvidersForTests } from "../providers/get-market-providers";
import { liveProviders } from "../providers/live";
import { startBasisReplayServer } from "../test/basis-replay";
import { decodePng } from "../test/png";
import { signedRequest, UPSTREAM_ORIGIN } from "../../testing/signed-request";

// Each operation's contract, by the names the assertions use.
const c = {
  aggregatesResponse,
  archiveCatalogResponse,
  archiveRangeResponse,
  archiveSnapshotResponse,
  avgInterestRatesResponse,
  backtestResponse,
  basisResponse,
  basisRow,
};

const call = async (req: Request) => {
  const res = await GET(req, { params: Promise.resolve({}) });
  return { status: res.status, body: (res.headers.get("content-type") ?? "").includes("json") ? await res.json() : null, res };
};
const get = (pathAndQuery: string, opts?: Parameters<typeof signedRequest>[1]) => call(signedRequest(pathAndQuery, opts));

// Built-in feeds are global: this file owns the built-in archive days, on dates far from any real capture.
const DAYS = ["2090-01-01", "2090-01-02", "2090-01-03"];

beforeAll(async () => {
  for (const d of DAYS) {
    const r = await captureArchive({ feeds: archiveFeeds(), now: () => new Date(`${d}T12:00:00Z`), providers: embeddedProviders() });
    expect(r.type).toBe("ran");
    if (r.type !== "ran") continue;
    // Every built-in feed is captured, basis included (the embedded snapshot).
    expect(r.outcomes.map((o) => o.status)).toEqual(r.outcomes.map(() => "captured"));
    expect(r.outcomes.map((o) => o.feed)).toContain("basis");
  }
});

describe("signed calls answer every operation with its contract", () => {
  it("aggregates (default window)", async () => {
    const { status, body } = await get("/aggregates/AAPL");
    expect(status).toBe(200);
    expect(c.aggregatesResponse.parse(body).data.count).toBe(253);
    expect(Object.keys(body.data.bars[0]).sort()).toEqual(["close", "high", "low", "open", "timestamp", "trade_count", "volume", "vwap"]);
  });

  it("avg interest rates", async () => {
    const { status, body } = await get("/avg-interest-rates");
    expect(status).toBe(200);
    expect(c.avgInterestRatesResponse.parse(body).source).toBe("us_treasury");
  });

  it("basis: 200 from the recorded snapshot, part 2 schema, its 7 tickers widest dislocation first", async () => {
    const { status, body, res } = await get("/basis");
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const b = c.basisResponse.parse(body);
    for (const row of body.rows) expect(Object.keys(row).sort()).toEqual(Object.keys(c.basisRow.shape).sort());
    // |(mark - close) / close|: HOOD 2.60%, COIN 0.55%, TSLA 0.50%, NFLX 0.36%, AMZN 0.21%, AMD 0.08%, PLTR 0.01%.
    expect(b.rows.map((r) => r.ticker)).toEqual(["HOOD", "COIN", "TSLA", "NFLX", "AMZN", "AMD", "PLTR"]);
    expect(b).toMatchObject({ source: "market-data", as_of: "2026-09-30T07:08:13Z", count: 7, total_available: 7, us_market_open: false });
    expect(b.provenance).toMatchObject({ kind: "recorded", as_of: "2026-09-30T07:08:13Z" });
    expect(b.provenance!.source).toContain("Hyperliquid");
    const wide = await get("/basis?limit=5&min_basis=0.5");
    expect(c.basisResponse.parse(wide.body).rows.map((r) => r.ticker)).toEqual(["HOOD", "COIN", "TSLA"]);
  });

  it("archive catalog, day and range; coverage matches the captured days", async () => {
    const cat = await get("/archive");
    expect(cat.status).toBe(200);
    const parsed = c.archiveCatalogResponse.parse(cat.body);
    const agg = parsed.feeds.find((f) => f.feed === "aggregates")!;
    expect(agg.entities.find((e) => e.entity === "AAPL")!.coverage).toEqual({ first_date: "2090-01-01", last_date: "2090-01-03", days: 3 });

    const day = await get("/archive/aggregates?entity=SPX");
    expect(day.status).toBe(200);
    const snap = c.archiveSnapshotResponse.parse(day.body).snapshot;
    expect(snap).toMatchObject({ feed: "aggregates", entity: "SPX", observed_date: "2090-01-03" });
    expect(c.aggregatesResponse.parse(snap.payload).ticker).toBe("SPX");

    const past = await get("/archive/avg_interest_rates?date=2090-01-02");
    expect(c.archiveSnapshotResponse.parse(past.body).snapshot.observed_date).toBe("2090-01-02");

    const range = await get("/archive/avg_interest_rates/range?limit=366");
    expect(range.status).toBe(200);
    const r = c.archiveRangeResponse.parse(range.body);
    expect(r.days.map((d) => d.observed_date)).toEqual(DAYS);
    expect(r.days[0]).not.toHaveProperty("payload");

    // Basis is captured from the embedded snapshot like the other feeds; its payload is the basis response.
    expect(parsed.feeds.find((f) => f.feed === "basis")!.entities).toEqual([
      { entity: "us_equity_perps", coverage: { first_date: "2090-01-01", last_date: "2090-01-03", days: 3 } },
    ]);
    const basisRange = await get("/archive/basis/range?limit=366");
    expect(basisRange.status).toBe(200);
    const br = c.archiveRangeResponse.parse(basisRange.body);
    expect(br).toMatchObject({ feed: "basis", count: 3 });
    expect(br.days[0]!.summary).toEqual({ count: 7, comparable: 7, us_market_open: false, widest_ticker: "HOOD", widest_basis_percent: 2.5985 });
    const basisDay = c.archiveSnapshotResponse.parse((await get("/archive/basis")).body).snapshot;
    expect(c.basisResponse.parse(basisDay.payload).rows).toHaveLength(7);
  });

  it("backtest, with a PNG that decodes and is served at artifact.url", async () => {
    const { status, body } = await get("/backtest/AAPL?strategy=sma_cross&fast=20&slow=50&years=5", {
      headers: { "x-forwarded-host": "shop.example", "x-forwarded-proto": "https" },
    });
    expect(status).toBe(200);
    const b = c.backtestResponse.parse(body);
    expect(b.artifact.url).toBe(`https://shop.example/artifacts/${b.artifact.id}.png`);
    expect(b.data.bars).toBe(1260);
    expect(b.data.start_date).toBe("2013-05-13");
    expect(b.data.trades.count).toBeGreaterThan(0);
    // Five calendar years back from the last bar reach before the first one: the response says the 20/50 crossover
    // has no warm-up and when its first signal can come (the file's 51st bar).
    expect(b.data.window).toEqual({ years: 5, from: "2013-05-11", to: "2018-05-11" });
    expect(b.data.warmup).toMatchObject({ bars: 0, from: null, needed: 50, sufficient: false });
    expect(b.data.warmup.note).toContain("the first signal can come on the close of 2013-07-24");

    const file = `${b.artifact.id}.png`;
    const res = await artifactGET(new Request(`${UPSTREAM_ORIGIN}/artifacts/${file}`), { params: Promise.resolve({ file }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = decodePng(new Uint8Array(await res.arrayBuffer()));
    expect([png.width, png.height]).toEqual([1200, 600]);
    // The strategy line (#2563eb) and dark text pixels are drawn.
    let blue = 0;
    let dark = 0;
    for (let i = 0; i < png.pixels.length; i += png.channels) {
      const [r, g, bl] = [png.pixels[i]!, png.pixels[i + 1]!, png.pixels[i + 2]!];
      if (r === 0x25 && g === 0x63 && bl === 0xeb) blue++;
      if (r < 40 && g < 40 && bl < 50) dark++;
    }
    expect(blue).toBeGreaterThan(500);
    expect(dark).toBeGreaterThan(200);
  });

  it("rsi_reversion backtest", async () => {
    const { status, body } = await get("/backtest/SPX?strategy=rsi_reversion&period=14&lower=30&upper=70&years=2&capital=100000");
    expect(status).toBe(200);
    const b = c.backtestResponse.parse(body);
    expect(b.strategy).toEqual({ kind: "rsi_reversion", label: "RSI(14) reversion 30/70", params: { period: 14, lower: 30, upper: 70 } });
    // Two calendar years back from SPX's last bar (2020-04-17), warmed up on the 4,600 sessions before 2018-04-17.
    expect(b.data.window).toEqual({ years: 2, from: "2018-04-17", to: "2020-04-17" });
    expect(b.data.warmup).toEqual({ bars: 4600, from: "2000-01-03", needed: 14, sufficient: true, note: null });
    expect(b.data.start_date).toBe("2018-04-17");
  });
});

describe("basis end to end with the live providers (Hyperliquid and Massive replayed locally)", () => {
  let replay: Awaited<ReturnType<typeof startBasisReplayServer>>;
  beforeAll(async () => {
    replay = await startBasisReplayServer();
    setMarketProvidersForTests(
      liveProviders({
        massiveBaseUrl: replay.base,
        massiveApiKey: "test-massive-key",
        treasuryBaseUrl: replay.base,
        hyperliquidBaseUrl: replay.base,
        retries: 0,
        timeoutMs: 5_000,
      }),
    );
  });
  afterAll(async () => {
    setMarketProvidersForTests(undefined);
    await replay.close();
  });

  it("GET /basis answers the basis contract", async () => {
    replay.seen.length = 0;
    const { status, body } = await get("/basis?limit=5&min_basis=0.5");
    expect(status).toBe(200);
    const b = c.basisResponse.parse(body);
    expect(b.count).toBeGreaterThan(0);
    expect(b.count).toBeLessThanOrEqual(5);
    expect(b.rows.every((r) => r.comparable && Math.abs(r.basis_percent!) >= 0.5)).toBe(true);
    expect(b.rows.map((r) => r.ticker)).toEqual(["HOOD", "COIN", "TSLA"]);
    expect(b.venue_map).toEqual({ xyz: "XYZ" });
    expect(b.note).toBeNull();
    expect(b.provenance).toBeNull();
    expect(b.total_available).toBe(7);
    const posts = replay.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body));
    expect(posts).toEqual([{ type: "perpDexs" }, { type: "metaAndAssetCtxs", dex: "xyz" }]);
    expect(replay.seen.some((s) => s.method === "GET" && s.url.startsWith("/v2/aggs/ticker/TSLA/range/1/day/"))).toBe(true);
  });

  it("a bad parameter is a 400 naming it, before any provider call", async () => {
    replay.seen.length = 0;
    for (const [path, parameter] of [
      ["/basis?limit=0", "limit"],
      ["/basis?limit=501", "limit"],
      ["/basis?min_basis=-1", "min_basis"],
      ["/basis?min_basis=101", "min_basis"],
    ]) {
      const { status, body } = await get(path!);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: "invalid_request", parameter });
    }
    expect(replay.seen).toEqual([]);
  });
});

describe("the backtest artifact expires", () => {
  it("answers 404 after expires_at and is deleted by the sweep", async () => {
    // Made two days ago: past its lifetime (a day, or the replay window and a little more, whichever is longer).
    const past = Date.now() - 2 * 86_400_000;
    const b = await createBacktest("AAPL", backtestQuery.parse({ years: "1" }), {
      origin: UPSTREAM_ORIGIN,
      providers: embeddedProviders(),
      now: () => new Date(past),
    });
    expect(Date.parse(b.artifact.expires_at)).toBeLessThan(Date.now());
    const file = `${b.artifact.id}.png`;
    const res = await artifactGET(new Request(`${UPSTREAM_ORIGIN}/artifacts/${file}`), { params: Promise.resolve({ file }) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "artifact_not_found" });
    expect(await deleteExpiredArtifacts(new Date())).toBeGreaterThanOrEqual(1);
    expect(await db.marketArtifact.findUnique({ where: { id: b.artifact.id } })).toBeNull();
  });
});

describe("only gateway-signed requests are answered", () => {
  it("refuses unsigned, stale, wrongly keyed and altered requests with 401", async () => {
    const unsigned = await call(new Request(`${UPSTREAM_ORIGIN}/upstream/market/v1/aggregates/AAPL`));
    expect(unsigned).toMatchObject({ status: 401, body: { error: "invalid_upstream_signature", reason: "missing_signature" } });
    expect((await get("/aggregates/AAPL", { now: Date.now() - 10 * 60_000 })).body).toMatchObject({
      error: "invalid_upstream_signature",
      reason: "stale_signature",
    });
    expect((await get("/aggregates/AAPL", { secret: "another-sellers-secret-123" })).body).toMatchObject({ reason: "bad_signature" });
    const good = signedRequest("/aggregates/AAPL?limit=5");
    const altered = new Request(good.url.replace("limit=5", "limit=50"), { headers: good.headers });
    expect(await call(altered)).toMatchObject({ status: 401, body: { reason: "bad_signature" } });
  });
});

describe("bad input gets a 400 naming the parameter, never a 500", () => {
  const cases: [string, string][] = [
    ["/aggregates/AAPL?limit=0", "limit"],
    ["/aggregates/AAPL?limit=50001", "limit"],
    ["/aggregates/AAPL?multiplier=50001", "multiplier"],
    ["/aggregates/AAPL?multiplier=1.5", "multiplier"],
    ["/aggregates/AAPL?timespan=second", "timespan"],
    ["/aggregates/AAPL?from=2023-02-30", "from"],
    ["/aggregates/AAPL?adjusted=maybe", "adjusted"],
    ["/aggregates/AAPL?sort=up", "sort"],
    ["/aggregates/aapl", "ticker"],
    ["/aggregates/AAPL?limit=1&limit=2", "limit"],
    ["/backtest/AAPL?years=6", "years"],
    ["/backtest/AAPL?years=0", "years"],
    ["/backtest/AAPL?fast=0", "fast"],
    ["/backtest/AAPL?fast=201", "fast"],
    ["/backtest/AAPL?slow=401", "slow"],
    ["/backtest/AAPL?fast=60&slow=50", "fast"],
    ["/backtest/AAPL?strategy=rsi_reversion&period=101", "period"],
    ["/backtest/AAPL?strategy=rsi_reversion&lower=0", "lower"],
    ["/backtest/AAPL?strategy=rsi_reversion&upper=100", "upper"],
    ["/backtest/AAPL?strategy=rsi_reversion&lower=70&upper=30", "lower"],
    ["/backtest/AAPL?capital=0", "capital"],
    ["/backtest/AAPL?capital=1000000001", "capital"],
    ["/backtest/AAPL?strategy=macd", "strategy"],
    ["/archive/basis/range?limit=367", "limit"],
    ["/archive/basis/range?from=2090-01-03&to=2090-01-01", "from"],
    ["/archive/basis?date=yesterday", "date"],
    ["/basis?limit=0", "limit"],
    ["/basis?min_basis=-1", "min_basis"],
  ];
  it.each(cases)("%s -> 400 %s", async (path, parameter) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "invalid_request", parameter });
    expect(body.detail).toContain(parameter);
  });

  it("answers unknown things with 404 and uncovered data with 403", async () => {
    expect((await get("/aggregates/ZZZZ")).body).toMatchObject({ error: "unknown_ticker" });
    expect((await get("/backtest/ZZZZ")).status).toBe(404);
    expect((await get("/aggregates/AAPL?timespan=minute")).body).toMatchObject({ error: "not_included", reason: "timespan_not_included" });
    expect((await get("/aggregates/AAPL?from=2024-01-02&to=2024-02-01")).status).toBe(403);
    expect((await get("/archive/nope")).body).toMatchObject({ error: "not_found", reason: "unknown_feed" });
    expect((await get("/archive/aggregates?entity=MSFT")).body).toMatchObject({ error: "not_found", reason: "unknown_entity" });
    expect((await get("/archive/aggregates?date=2089-12-31")).body).toMatchObject({ error: "archive_day_not_found" });
    expect((await get("/nothing-here")).status).toBe(404);
    const empty = await get("/aggregates/AAPL?from=2017-01-07&to=2017-01-08");
    expect(empty.body.data).toEqual({ bars: [], count: 0, adjusted: true });
  });
});
