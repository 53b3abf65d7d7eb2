// The shared embedded source (MARKET_PROVIDER=embedded, the default): daily price bars from files on disk, offline.
// Data it does not hold gets the answer a real vendor gives (404 unknown_ticker, 403 not_included), never an invented
// bar. An operation's own embedded source lives in its folder and is built here by `family`.
import { AppError } from "../../errors";
import { bucketDailyBars, bucketSpan } from "./bucket-daily-bars";
import { EMBEDDED_TICKERS, embeddedCoverage, embeddedDailySeries } from "./embedded-daily-series";
import type { AggregatesProvider, MarketProviders, ProviderFamily } from "./types";

export { resetEmbeddedCache } from "./data-file";

function unknownTicker(ticker: string): AppError {
  return new AppError("unknown_ticker", {
    detail: `${ticker} is not in this provider's dataset (embedded data covers ${EMBEDDED_TICKERS.join(", ")})`,
    extra: { ticker },
  });
}

export const embeddedAggregates: AggregatesProvider = {
  name: "embedded",
  coverage: (ticker) => embeddedCoverage(ticker),
  async getAggregates(p) {
    const series = embeddedDailySeries(p.ticker, p.adjusted);
    if (!series) throw unknownTicker(p.ticker);
    if (p.timespan === "minute" || p.timespan === "hour") {
      throw new AppError("not_included", {
        reason: "timespan_not_included",
        detail: `${p.timespan} bars are not included: the embedded dataset holds daily bars only (day, week, month, quarter, year)`,
        extra: { ticker: p.ticker, timespan: p.timespan },
      });
    }
    const q = { ...p, timespan: p.timespan };
    const cov = embeddedCoverage(p.ticker)!;
    // Buckets are whole periods (a week asked from a Wednesday starts on its Sunday), so what must meet the
    // coverage is the span of the buckets, not the bare from..to.
    const span = bucketSpan(q);
    if (span && (span.last < cov.first || span.first > cov.last)) {
      throw new AppError("not_included", {
        reason: "timeframe_not_included",
        detail: `${p.ticker} data for ${span.first}..${span.last} is not included: the embedded dataset covers ${cov.first}..${cov.last}`,
        extra: { ticker: p.ticker, coverage: { first_date: cov.first, last_date: cov.last } },
      });
    }
    return { bars: bucketDailyBars(series, q), adjusted: p.adjusted };
  },
  async getDailyBars(ticker, from, to) {
    const series = embeddedDailySeries(ticker, true);
    if (!series) throw unknownTicker(ticker);
    return series.filter((b) => b.date >= from && b.date <= to);
  },
};

/** The embedded set: the shared bars, and each operation's own embedded source on first use. */
export function embeddedProviders(): MarketProviders {
  const shared = { aggregates: embeddedAggregates };
  const built = new Map<ProviderFamily<unknown>, unknown>();
  return {
    kind: "embedded",
    ...shared,
    family<P>(f: ProviderFamily<P>): P {
      if (!built.has(f)) built.set(f, f.embedded(shared));
      return built.get(f) as P;
    },
  };
}
