// The backtest engine: pure, over daily bars, with no lookahead. A signal is computed on a bar's close and
// filled at the next bar's open (the next close for a series with closes only); long only; all-in with whole shares
// (leftover cash stays cash, earns nothing), or fractional units of a divisible asset; no fees or slippage.
// Buy-and-hold buys the same way at the first window bar's open (or close).
//
// Rules (stated in the OpenAPI description too, server/contracts/operations.ts):
// - sma_cross buys on a crossover only: the fast SMA above the slow one on a close, at or below it on the close
//   before. Fast merely being above slow when the window opens is not a signal. It sells when fast crosses
//   below slow (below on a close, at or above on the close before).
// - rsi_reversion buys when RSI(period) closes below `lower` and sells when it closes above `upper`.
// Indicators run over every bar passed in, warm-up included, so a value on a given day does not depend on
// where the window starts.
import { rsiWilder, sma } from "./indicators";

/** A day of history: a stock's daily bar, or a close-only series' value (open null). */
export type BacktestBar = { date: string; open: number | null; close: number };

/**
 * How trades are filled: at the next bar's open (bars with an open), or at the next close for a series that has only
 * closes (a spot price, a reference rate, a yield). Statistics annualise with `barsPerYear` bars (252 trading days; 365
 * for a series with a value every calendar day).
 */
export type BacktestOptions = { fill: "open" | "close"; barsPerYear: number; wholeUnits: boolean };
const STOCK_OPTIONS: BacktestOptions = { fill: "open", barsPerYear: 252, wholeUnits: true };

export type StrategySpec = { kind: "sma_cross"; fast: number; slow: number } | { kind: "rsi_reversion"; period: number; lower: number; upper: number };

export type Trade = {
  entry_date: string;
  entry_price: number;
  exit_date: string | null;
  exit_price: number | null;
  shares: number;
  pnl: number;
  return_percent: number;
  bars_held: number;
  status: "closed" | "open";
};

export type Stats = {
  total_return_percent: number;
  cagr_percent: number;
  max_drawdown_percent: number;
  volatility_percent: number;
  sharpe: number;
  exposure_percent: number;
  final_equity: number;
};

export type BacktestResult = {
  dates: string[];
  strategyEquity: number[];
  buyHoldEquity: number[];
  strategy: Stats;
  buyHold: Stats;
  trades: Trade[];
};

/**
 * Bars of history before the window's first bar that the strategy needs to read a signal on that bar's close:
 * a crossover compares two closes, so both SMAs must exist on the bar before (max(fast, slow) bars); RSI(period)
 * has its first value after `period` changes.
 */
export function warmupBarsNeeded(s: StrategySpec): number {
  return s.kind === "sma_cross" ? Math.max(s.fast, s.slow) : s.period;
}

const r2 = (n: number) => Math.round(n * 100) / 100;
const r4 = (n: number) => Math.round(n * 10_000) / 10_000;

export function computeStats(dates: string[], equity: number[], exposureBars: number, initial: number, barsPerYear = 252): Stats {
  const n = equity.length;
  const final = n ? equity[n - 1]! : initial;
  const years = n > 1 ? (Date.parse(dates[n - 1]!) - Date.parse(dates[0]!)) / (365.25 * 86_400_000) : 0;
  let peak = -Infinity;
  let maxDd = 0;
  for (const e of equity) {
    peak = Math.max(peak, e);
    if (peak > 0) maxDd = Math.min(maxDd, e / peak - 1);
  }
  const rets: number[] = [];
  for (let i = 1; i < n; i++) if (equity[i - 1]! > 0) rets.push(equity[i]! / equity[i - 1]! - 1);
  const mean = rets.length ? rets.reduce((s, x) => s + x, 0) / rets.length : 0;
  const sd = rets.length > 1 ? Math.sqrt(rets.reduce((s, x) => s + (x - mean) ** 2, 0) / (rets.length - 1)) : 0;
  return {
    total_return_percent: r4((final / initial - 1) * 100),
    cagr_percent: years > 0 && final > 0 ? r4(((final / initial) ** (1 / years) - 1) * 100) : 0,
    max_drawdown_percent: r4(maxDd * 100),
    volatility_percent: r4(sd * Math.sqrt(barsPerYear) * 100),
    sharpe: sd > 0 ? r4((mean / sd) * Math.sqrt(barsPerYear)) : 0,
    exposure_percent: n ? r4((exposureBars / n) * 100) : 0,
    final_equity: r2(final),
  };
}

/**
 * `bars` is the full history oldest first (warm-up included); trading and statistics cover the bars with
 * date >= windowStart.
 */
export function runBacktest(
  bars: readonly BacktestBar[],
  windowStart: string,
  spec: StrategySpec,
  capital: number,
  opts: BacktestOptions = STOCK_OPTIONS,
): BacktestResult {
  // The price a fill gets on a bar; a series without opens fills at the close. Nothing is bought at a price <= 0 (a
  // series such as WTI in April 2020 or a yield at 0 has no share count to buy).
  const fillAt = (b: BacktestBar) => (opts.fill === "open" && b.open !== null ? b.open : b.close);
  // Whole shares for stocks; a divisible asset (a coin, a series' notional) buys fractional units with all the cash.
  const unitsFor = (cash: number, px: number) => (px <= 0 ? 0 : opts.wholeUnits ? Math.floor(cash / px) : cash / px);
  const closes = bars.map((b) => b.close);
  let signal: (i: number, long: boolean) => "buy" | "sell" | null;
  if (spec.kind === "sma_cross") {
    const fast = sma(closes, spec.fast);
    const slow = sma(closes, spec.slow);
    signal = (i, long) => {
      const [f, s, fPrev, sPrev] = [fast[i], slow[i], fast[i - 1], slow[i - 1]];
      if (f == null || s == null || fPrev == null || sPrev == null) return null;
      if (!long && f > s && fPrev <= sPrev) return "buy";
      if (long && f < s && fPrev >= sPrev) return "sell";
      return null;
    };
  } else {
    const rsi = rsiWilder(closes, spec.period);
    signal = (i, long) => {
      const v = rsi[i];
      if (v == null) return null;
      if (!long && v < spec.lower) return "buy";
      if (long && v > spec.upper) return "sell";
      return null;
    };
  }

  const start = bars.findIndex((b) => b.date >= windowStart);
  const dates: string[] = [];
  const strategyEquity: number[] = [];
  const buyHoldEquity: number[] = [];
  const trades: Trade[] = [];
  if (start < 0) return { dates, strategyEquity, buyHoldEquity, trades, strategy: computeStats([], [], 0, capital), buyHold: computeStats([], [], 0, capital) };

  let cash = capital;
  let shares = 0;
  let pending: "buy" | "sell" | null = null;
  let open: { date: string; price: number; index: number; cost: number } | null = null;
  let exposed = 0;
  const first = fillAt(bars[start]!);
  const bhShares = unitsFor(capital, first);
  const bhCash = capital - bhShares * first;

  for (let i = start; i < bars.length; i++) {
    const bar = bars[i]!;
    // Fill yesterday's signal at today's open (or close).
    const px = fillAt(bar);
    if (pending === "buy" && shares === 0) {
      const qty = unitsFor(cash, px);
      if (qty > 0) {
        shares = qty;
        cash -= qty * px;
        open = { date: bar.date, price: px, index: i, cost: qty * px };
      }
    } else if (pending === "sell" && shares > 0 && open) {
      const proceeds = shares * px;
      cash += proceeds;
      trades.push({
        entry_date: open.date,
        entry_price: open.price,
        exit_date: bar.date,
        exit_price: px,
        shares,
        pnl: r2(proceeds - open.cost),
        return_percent: r4((px / open.price - 1) * 100),
        bars_held: i - open.index,
        status: "closed",
      });
      shares = 0;
      open = null;
    }
    pending = null;

    dates.push(bar.date);
    strategyEquity.push(cash + shares * bar.close);
    buyHoldEquity.push(bhCash + bhShares * bar.close);
    if (shares > 0) exposed++;

    // Signal on this close, for the next open (none on the last bar: there is no next open).
    if (i < bars.length - 1) pending = signal(i, shares > 0);
  }
  if (open && shares > 0) {
    const last = bars[bars.length - 1]!;
    trades.push({
      entry_date: open.date,
      entry_price: open.price,
      exit_date: null,
      exit_price: null,
      shares,
      pnl: r2(shares * last.close - open.cost),
      return_percent: r4((last.close / open.price - 1) * 100),
      bars_held: bars.length - 1 - open.index,
      status: "open",
    });
  }
  return {
    dates,
    strategyEquity,
    buyHoldEquity,
    trades,
    strategy: computeStats(dates, strategyEquity, exposed, capital, opts.barsPerYear),
    buyHold: computeStats(dates, buyHoldEquity, bhShares > 0 ? dates.length : 0, capital, opts.barsPerYear),
  };
}

/** The trades block of the response: statistics over closed trades, and every trade (open last). */
export function summariseTrades(trades: Trade[]) {
  const closed = trades.filter((t) => t.status === "closed");
  const rets = closed.map((t) => t.return_percent);
  return {
    count: closed.length,
    win_rate_percent: closed.length ? r4((closed.filter((t) => t.pnl > 0).length / closed.length) * 100) : 0,
    avg_return_percent: rets.length ? r4(rets.reduce((s, x) => s + x, 0) / rets.length) : 0,
    best_percent: rets.length ? Math.max(...rets) : 0,
    worst_percent: rets.length ? Math.min(...rets) : 0,
    list: trades.map((t) => ({ ...t })),
  };
}
