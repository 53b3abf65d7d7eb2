// The daily history a backtest runs on, and the window it trades in.
//
// Window: `years` counts calendar years back from the last bar the provider holds. Whole years keep the month
// and day (3 years back from 2018-05-11 is 2015-05-11; 29 February becomes 28 February); a fraction adds that
// share of 365.25 days, rounded to whole days (1.5 years back from 2018-05-11 is 2017-05-11 minus 183 days,
// 2016-11-09). The window holds the bars dated on or after that day, up to and including the last bar.
//
// Warm-up: indicators run over all the history the provider holds before the window, so an SMA or RSI value on
// a day is the same whatever `years` is. The embedded provider knows its first bar; a live vendor's coverage is
// open-ended, so its history is the LIVE_HISTORY_YEARS calendar years before the last bar (the longest window,
// 5 years, plus as much again) whatever `years` asks. A vendor plan that refuses that much history (403
// not_included) gets a second, shorter request: the window plus the warm-up the strategy needs, and the
// response says so. Too little history before the window is said in `warmup.note`, never hidden.
import { AppError, isAppError } from "../../../errors";
import { addCalendarYears, addDays, newYorkClock } from "../../lib/dates";
import type { MarketProviders } from "../../providers/types";
import { warmupBarsNeeded, type BacktestBar, type StrategySpec } from "./run-backtest";
import { describeSeries, shelfHistory, type BacktestSeries } from "./backtest-series";

export const LIVE_HISTORY_YEARS = 10;

export type BacktestWindow = { years: number; from: string; to: string };
export type BacktestWarmup = { bars: number; from: string | null; needed: number; sufficient: boolean; note: string | null };
export type BacktestHistory = { bars: BacktestBar[]; window: BacktestWindow; warmup: BacktestWarmup; series: BacktestSeries };

/** The first day of the window: `years` calendar years back from `lastBar` (see the rule above). */
export function windowStart(lastBar: string, years: number): string {
  const whole = Math.floor(years);
  return addDays(addCalendarYears(lastBar, -whole), -Math.round((years - whole) * 365.25));
}

export async function loadBacktestHistory(
  ticker: string,
  q: { years: number; spec: StrategySpec; label: string },
  providers: MarketProviders,
  now: Date,
): Promise<BacktestHistory> {
  const needed = warmupBarsNeeded(q.spec);
  // A series of the shelf's namespace (BTC-USD, WTI-OIL, EUR-USD, UST-10Y, ...) is read from its file; a ticker from
  // the shared bars source.
  const shelf = shelfHistory(ticker);
  let limitedByVendor = false;
  let bars: BacktestBar[];
  if (shelf) bars = shelf.bars;
  else {
    const aggs = providers.aggregates;
    const coverage = aggs.coverage(ticker);
    const end = coverage?.last ?? newYorkClock(now).date;
    try {
      bars = await aggs.getDailyBars(ticker, coverage?.first ?? addCalendarYears(end, -LIVE_HISTORY_YEARS), end);
    } catch (err) {
      if (coverage || !isAppError(err) || err.code !== "not_included") throw err;
      // Trading days -> calendar days for the shorter request, with room for holidays.
      limitedByVendor = true;
      bars = await aggs.getDailyBars(ticker, addDays(windowStart(end, q.years), -(Math.ceil(needed * 1.5) + 10)), end);
    }
  }
  const end = bars.at(-1)?.date ?? newYorkClock(now).date;
  if (bars.length === 0) throw new AppError("not_included", { reason: "no_history", detail: `no daily history for ${ticker} up to ${end}`, extra: { ticker } });

  const last = bars[bars.length - 1]!.date;
  const from = windowStart(last, q.years);
  const before = bars.findIndex((b) => b.date >= from);
  const warmupBars = before < 0 ? bars.length : before;
  const sufficient = warmupBars >= needed;
  const notes: string[] = [];
  if (!sufficient) {
    const firstSignal = bars[needed]?.date;
    notes.push(
      `Only ${warmupBars} daily bar${warmupBars === 1 ? "" : "s"} of history precede the window (${ticker}'s history starts ${bars[0]!.date}); ` +
        `${q.label} needs ${needed} before a signal can be read on the window's first close, so ` +
        (firstSignal ? `the first signal can come on the close of ${firstSignal}.` : "no signal can be read in this history."),
    );
  }
  if (limitedByVendor) {
    notes.push(
      `The data vendor's plan refused ${LIVE_HISTORY_YEARS} years of history, so the indicators warm up on the bars just before the window only; their values near the window's start can depend on years.`,
    );
  }
  return {
    bars,
    series: shelf?.series ?? describeSeries(ticker, providers),
    window: { years: q.years, from, to: last },
    warmup: { bars: warmupBars, from: warmupBars > 0 ? bars[0]!.date : null, needed, sufficient, note: notes.length ? notes.join(" ") : null },
  };
}
