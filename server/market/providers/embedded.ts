// The shared embedded source (MARKET_PROVIDER=embedded, the default): daily price bars from files on disk, offline.
// Data it does not hold gets the answer a real vendor gives (404 unknown_ticker, 403 not_included), never an invented
// bar. An operation's own embedded source lives in its folder and is built here by `family`.
import { AppError } from "../../errors";
import { bucketDailyBars, bucketSpan } from "./bucket-daily-bars";
import { embeddedCoverage, embeddedDailySeries, embeddedSeriesBasis, embeddedTickers } from "./embedded-daily-series";
import type { AggregatesProvider, BarsSeriesInfo, MarketProviders, ProviderFamily } from "./types";

export { resetEmbeddedCache } from "./data-file";

function unknownTicker(ticker: string): AppError {
  return new AppError("unknown_ticker", {
    detail: `${ticker} is not in this provider's dataset (embedded data covers ${embeddedTickers().join(", ")})`,
    extra: { ticker },
  });
}

/** What the answer says about the file behind `ticker`: its basis and the days held on the basis asked. */
function seriesOf(ticker: string, adjusted: boolean): BarsSeriesInfo {
  const b = embeddedSeriesBasis(ticker)!;
  const cov = embeddedCoverage(ticker, adjusted)!;
  return {
    name: b.name,
    kind: b.kind,
    file_source: b.source,
    prices: adjusted ? b.adjusted : b.as_traded,
    dividend_adjusted: adjusted && b.dividend_adjusted,
    volume: b.volume,
    first_date: cov.first,
    last_date: cov.last,
  };
}

export const embeddedAggregates: AggregatesProvider = {
  name: "embedded",
  coverage: (ticker) => embeddedCoverage(ticker),
  async getAggregates(p) {
    const series = embeddedDailySeries(p.ticker, p.adjusted);
    if (series === undefined) throw unknownTicker(p.ticker);
    const basis = embeddedSeriesBasis(p.ticker)!;
    // A dividend-adjusted file holds no as-traded price: refused, never served as if it were one.
    if (series === null)
      throw new AppError("not_included", {
        reason: "unadjusted_not_included",
        detail: `${p.ticker} as traded (adjusted=false) is not included: the embedded file is ${basis.adjusted}; ask with adjusted=true`,
        extra: { ticker: p.ticker, adjustment: basis.adjusted },
      });
    if (p.timespan === "minute" || p.timespan === "hour") {
      throw new AppError("not_included", {
        reason: "timespan_not_included",
        detail: `${p.timespan} bars are not included: the embedded dataset holds daily bars only (day, week, month, quarter, year)`,
        extra: { ticker: p.ticker, timespan: p.timespan },
      });
    }
    const q = { ...p, timespan: p.timespan };
    const cov = embeddedCoverage(p.ticker, p.adjusted)!;
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
    return { bars: bucketDailyBars(series, q), adjusted: p.adjusted, series: seriesOf(p.ticker, p.adjusted) };
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
