// GET /backtest/{ticker}: history from the aggregates provider (load-backtest-history: the window `years`
// asks for and every bar before it for the indicators' warm-up), the engine, the PNG report stored as an
// expiring artifact. The response states the window used and how much warm-up the indicators had.
import type { z } from "zod";
import type { backtestQuery, backtestResponse } from "./contract";
import { env } from "../../../env";
import { invalidParameter } from "../../../errors";
import { newId } from "../../../lib/ids";
import { deleteExpiredArtifacts, insertArtifact } from "../../artifacts/artifacts.queries";
import { MARKET_SOURCE, systemClock, type Clock } from "../../lib/envelope";
import { getMarketProviders } from "../../providers/get-market-providers";
import type { MarketProviders } from "../../providers/types";
import { optionsOf, type BacktestSeries } from "./backtest-series";
import { loadBacktestHistory } from "./load-backtest-history";
import { renderEquityChartPng } from "./render-equity-chart";
import { runBacktest, summariseTrades, type StrategySpec } from "./run-backtest";

export type BacktestQuery = z.output<typeof backtestQuery>;
export type BacktestResponse = z.infer<typeof backtestResponse>;

export const BACKTEST_DISCLAIMER =
  "Hypothetical results on historical daily data: fills at the next open, whole shares, no fees, slippage, dividends or taxes. Past performance does not predict future results. Not investment advice.";

/** The disclaimer of a backtest over `series`: the stocks' own, or the fills and units a shelf series trades with. */
export function disclaimerFor(series: BacktestSeries): string {
  if (series.units_traded === "whole" && series.fills === "next_open") return BACKTEST_DISCLAIMER;
  const fills = series.fills === "next_open" ? "fills at the next open" : "fills at the next close (the series has closes only)";
  return `Hypothetical results on historical daily data: ${fills}, fractional units, no fees, slippage, funding or taxes. Past performance does not predict future results. Not investment advice.`;
}

export function strategyOf(q: BacktestQuery): { spec: StrategySpec; label: string; params: Record<string, number> } {
  if (q.strategy === "sma_cross") {
    if (q.fast >= q.slow) throw invalidParameter("fast", `fast must be less than slow (got fast ${q.fast}, slow ${q.slow})`);
    return { spec: { kind: "sma_cross", fast: q.fast, slow: q.slow }, label: `SMA crossover ${q.fast}/${q.slow}`, params: { fast: q.fast, slow: q.slow } };
  }
  if (q.lower >= q.upper) throw invalidParameter("lower", `lower must be less than upper (got lower ${q.lower}, upper ${q.upper})`);
  return {
    spec: { kind: "rsi_reversion", period: q.period, lower: q.lower, upper: q.upper },
    label: `RSI(${q.period}) reversion ${q.lower}/${q.upper}`,
    params: { period: q.period, lower: q.lower, upper: q.upper },
  };
}

export async function createBacktest(
  ticker: string,
  q: BacktestQuery,
  deps: { origin: string; providers?: MarketProviders; now?: Clock },
): Promise<BacktestResponse> {
  const providers = deps.providers ?? getMarketProviders();
  const now = (deps.now ?? systemClock)();
  const { spec, label, params } = strategyOf(q);

  const { bars, window, warmup, series } = await loadBacktestHistory(ticker, { years: q.years, spec, label }, providers, now);
  const result = runBacktest(bars, window.from, spec, q.capital, optionsOf(series));

  // A paid answer is kept for re-delivery for PAYMENT_REPLAY_HOURS from its delivery (a moment after this, within the
  // gateway's upstream deadline): the PNG it links to stays at least that long, so a replay's link still works.
  const e = env();
  const ttlMs = Math.max(e.MARKET_ARTIFACT_TTL_SECONDS * 1000, e.PAYMENT_REPLAY_HOURS * 3_600_000 + e.GATEWAY_UPSTREAM_TIMEOUT_MS + 60_000);
  const id = newId("art");
  const expiresAt = new Date(now.getTime() + ttlMs);
  const png = renderEquityChartPng({
    title: `${ticker}: ${label} vs buy and hold`,
    subtitle: `${result.dates[0] ?? "-"} to ${result.dates[result.dates.length - 1] ?? "-"}, initial capital $${q.capital.toLocaleString("en-US")}; strategy ${result.strategy.total_return_percent.toFixed(2)}%, buy and hold ${result.buyHold.total_return_percent.toFixed(2)}%`,
    dates: result.dates,
    strategy: result.strategyEquity,
    buyHold: result.buyHoldEquity,
    strategyLabel: label,
  });
  await insertArtifact({ id, contentType: "image/png", bytes: png, createdAt: now, expiresAt });
  // Cleanup rides on writes: every new artifact sweeps the expired ones (the scheduler sweeps too). Awaited,
  // so a sweep never lands after a later request's insert; a failed sweep only delays cleanup.
  await deleteExpiredArtifacts(now).catch(() => 0);

  return {
    ticker,
    source: MARKET_SOURCE,
    as_of: now.toISOString(),
    artifact: { id, url: `${deps.origin}/artifacts/${id}.png`, format: "png", expires_at: expiresAt.toISOString() },
    strategy: { kind: spec.kind, label, params },
    data: {
      bars: result.dates.length,
      start_date: result.dates[0] ?? null,
      end_date: result.dates[result.dates.length - 1] ?? null,
      initial_capital: q.capital,
      strategy: result.strategy,
      buy_hold: result.buyHold,
      trades: summariseTrades(result.trades),
      window,
      warmup,
      series,
    },
    disclaimer: disclaimerFor(series),
  };
}
