// Market data: the aggregates engine at 5,000 and 50,000 base bars, a 5-year backtest including the PNG,
// and an archive range of 366 days. Engine cases run in-process (isolating the domain code from HTTP);
// aggregates and backtest are also measured over HTTP against the built app's signed upstream.
import { randomBytes } from "node:crypto";
import type { BenchContext } from "./types";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function time(n: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export async function run(ctx: BenchContext) {
  // In-process calls read the stack's database and secrets.
  for (const [k, v] of Object.entries(ctx.env)) process.env[k] ??= v;
  process.env.DATABASE_URL = ctx.env.DATABASE_URL;
  const { signUpstreamRequest } = await import("../../server/upstream-auth/signature");
  const { getAggregates } = await import("../../server/market/operations/aggregates/get-aggregates");
  const { bucketDailyBars } = await import("../../server/market/providers/bucket-daily-bars");
  const { embeddedProviders } = await import("../../server/market/providers/embedded");
  const { createBacktest } = await import("../../server/market/operations/backtest/create-backtest");
  const { backtestQuery } = await import("../../server/market/operations/backtest/contract");
  const { captureArchive } = await import("../../server/market/archive/capture-archive");
  const { getArchiveRange } = await import("../../server/market/archive/read-archive");
  const { getAvgInterestRates } = await import("../../server/market/operations/avg-interest-rates/get-avg-interest-rates");
  const { addDays } = await import("../../server/market/lib/dates");
  const providers = embeddedProviders();

  const signedFetch = async (pathAndQuery: string) => {
    const url = new URL(`${ctx.baseUrl}/upstream/market/v1${pathAndQuery}`);
    const headers = signUpstreamRequest(ctx.env.MARKET_UPSTREAM_SECRET!, { method: "GET", path: url.pathname, query: url.searchParams });
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  };

  // --- aggregates, 5,000 base bars: real S&P 500 daily bars (embedded), weekly buckets ---
  const q5k = {
    ticker: "SPX",
    multiplier: 1,
    timespan: "week" as const,
    from: "2000-01-01",
    to: "2020-12-31",
    adjusted: true,
    sort: "asc" as const,
    limit: 5000,
  };
  const check = await getAggregates({ ...q5k, timespan: "day" }, { providers });
  if (check.data.count !== 5000) throw new Error(`expected 5000 base bars, got ${check.data.count}`);
  await time(20, () => getAggregates(q5k, { providers }));
  ctx.record("market aggregates 5000 base bars -> weekly (in-process)", await time(300, () => getAggregates(q5k, { providers })));
  const http5k = "/aggregates/SPX?from=2000-01-01&to=2020-12-31&limit=5000&timespan=week";
  await time(10, () => signedFetch(http5k));
  ctx.record("market aggregates 5000 base bars (HTTP, signed upstream)", await time(200, () => signedFetch(http5k)));
  ctx.ratio(
    "market aggregates 5000: HTTP / in-process p50",
    "market aggregates 5000 base bars (HTTP, signed upstream)",
    "market aggregates 5000 base bars -> weekly (in-process)",
  );

  // --- aggregates, 50,000 base bars: SYNTHETIC load. The embedded data has at most 5,105 daily bars per
  // ticker, so this case buckets 50,000 generated bars in memory. Never served by the app. ---
  const synthetic = Array.from({ length: 50_000 }, (_, i) => {
    const c = 100 + 10 * Math.sin(i / 50) + i / 1000;
    return { date: addDays("1990-01-01", i), open: c - 0.5, high: c + 1, low: c - 1, close: c, volume: 1_000_000 + (i % 1000) };
  });
  const q50k = { from: "1990-01-01", to: "2200-01-01", multiplier: 1, timespan: "week" as const, limit: 50_000, sort: "asc" as const };
  if (bucketDailyBars(synthetic, { ...q50k, timespan: "day" }).length !== 50_000) throw new Error("synthetic case must read 50000 base bars");
  await time(5, () => bucketDailyBars(synthetic, q50k));
  ctx.record("market aggregates 50000 base bars -> weekly (in-process, SYNTHETIC bars)", await time(100, () => bucketDailyBars(synthetic, q50k)), {
    note: "synthetic in-memory bars",
  });

  // --- backtest: 5 years of AAPL daily bars, SMA 50/200, PNG rendered and stored ---
  const q = backtestQuery.parse({ years: "5", fast: "50", slow: "200" });
  await time(3, () => createBacktest("AAPL", q, { origin: ctx.baseUrl, providers }));
  ctx.record("market backtest 5y AAPL sma 50/200 incl. PNG (in-process)", await time(60, () => createBacktest("AAPL", q, { origin: ctx.baseUrl, providers })));
  const rsiQ = backtestQuery.parse({ years: "5", strategy: "rsi_reversion" });
  ctx.record("market backtest 5y SPX rsi 14 incl. PNG (in-process)", await time(40, () => createBacktest("SPX", rsiQ, { origin: ctx.baseUrl, providers })));
  await time(3, () => signedFetch("/backtest/AAPL?years=5"));
  ctx.record("market backtest 5y incl. PNG (HTTP, signed upstream)", await time(40, () => signedFetch("/backtest/AAPL?years=5")));

  // --- archive range of 366 days: a bench-only feed (random name) captured over 400 moved-clock days,
  // each payload a real average interest rates answer ---
  const ratesPayload = await getAvgInterestRates({ providers });
  const feed = {
    feed: `bench_${randomBytes(4).toString("hex")}`,
    description: "bench feed",
    entities: ["us_treasury"],
    fetch: async () => ratesPayload,
    summarize: (p: unknown) => ({ count: (p as { count: number }).count, record_date: (p as { record_date: string | null }).record_date }),
  };
  const t0 = performance.now();
  for (let i = 0; i < 400; i++) {
    const day = addDays("2200-01-01", i);
    await captureArchive({ now: () => new Date(`${day}T12:00:00Z`), feeds: [feed], providers });
  }
  ctx.log(`market: captured 400 archive days in ${Math.round(performance.now() - t0)} ms`);
  const rangeQ = { from: "2200-01-01", limit: 366 };
  const first = await getArchiveRange(feed.feed, rangeQ, { feeds: [feed] });
  if (first.count !== 366) throw new Error(`expected 366 days, got ${first.count}`);
  await time(10, () => getArchiveRange(feed.feed, rangeQ, { feeds: [feed] }));
  ctx.record("market archive range 366 days (in-process, PostgreSQL)", await time(200, () => getArchiveRange(feed.feed, rangeQ, { feeds: [feed] })));
  ctx.log(`market: aggregates 5000 p50 sanity ${pct(await time(10, () => getAggregates(q5k, { providers })), 50).toFixed(2)} ms`);
}
