// What a backtest runs over, said in its answer (`data.series`): a US ticker from the shared bars source (offline the
// embedded files, each on its adjustment basis; live Massive), or a series of the shelf's own namespace (Coinbase
// crypto bars, EIA spot prices, Fed H.10 exchange rates, H.15 yields and the Fed funds rate), read from its file
// whatever MARKET_PROVIDER is. A close-only series has no open: its trades fill at the next close, and it says so.
import { embeddedSeriesBasis } from "../../providers/embedded-daily-series";
import { shelfSeries, shelfSeriesDefs } from "../../providers/shelf-daily-series";
import type { MarketProviders } from "../../providers/types";
import type { BacktestBar, BacktestOptions } from "./run-backtest";

export type BacktestSeries = {
  id: string;
  name: string;
  kind: string;
  source: string;
  units: string;
  prices: string;
  fills: "next_open" | "next_close";
  units_traded: "whole" | "fractional";
  bars_per_year: number;
  note: string | null;
};

export const optionsOf = (s: BacktestSeries): BacktestOptions => ({
  fill: s.fills === "next_open" ? "open" : "close",
  barsPerYear: s.bars_per_year,
  wholeUnits: s.units_traded === "whole",
});

const NOT_TRADED: Record<string, string> = {
  commodity: "a spot price assessment, not a traded contract: the backtest treats its value as a price",
  fx: "a reference rate (the Fed's noon buying rate), not a dealt quote: the backtest treats its value as a price",
  rate: "an interest rate in percent, not a price: the backtest treats the rate's level as if it were a price, which is not a bond's return",
};

/** A series of the shelf's namespace, its bars and its description; null for any other name (a ticker). */
export function shelfHistory(id: string): { bars: BacktestBar[]; series: BacktestSeries } | null {
  const s = shelfSeries(id);
  if (!s) return null;
  const d = s.def;
  return {
    bars: s.points.map((p) => ({ date: p.date, open: d.closeOnly ? null : p.open, close: p.close })),
    series: {
      id: d.id,
      name: d.name,
      kind: d.kind,
      source: `${d.origin} (${d.publisherId}; the shelf's ${d.file}, ${s.coverage.first}..${s.coverage.last}, read in either provider mode)`,
      units: d.units,
      prices: d.closeOnly ? `one value a day: ${d.day}` : `daily open, high, low, close: ${d.day}`,
      fills: d.closeOnly ? "next_close" : "next_open",
      units_traded: "fractional",
      bars_per_year: d.barsPerYear,
      note:
        [
          d.closeOnly
            ? "The series has closes only: a signal on a close is filled at the next close, and buy-and-hold buys at the window's first close."
            : null,
          NOT_TRADED[d.kind] ?? null,
          s.partialDays.length ? `Days the source covers only in part: ${s.partialDays.map((p) => p.date).join(", ")}.` : null,
        ]
          .filter(Boolean)
          .join(" ") || null,
    },
  };
}

/** A US ticker's description: the embedded file's basis offline, the live vendor's otherwise. */
export function describeSeries(ticker: string, providers: MarketProviders): BacktestSeries {
  const basis = providers.kind === "embedded" ? embeddedSeriesBasis(ticker) : null;
  return {
    id: ticker,
    name: basis?.name ?? ticker,
    kind: basis?.kind ?? "us_listed",
    source: basis ? `the embedded file: ${basis.source}` : "massive (live daily bars)",
    units: basis?.kind === "index" ? "index points" : "USD per share",
    prices: basis?.adjusted ?? "split-adjusted daily bars as the vendor adjusts them; not dividend-adjusted",
    fills: "next_open",
    units_traded: "whole",
    bars_per_year: 252,
    note: basis?.dividend_adjusted ? "Dividend-adjusted prices: buy-and-hold and the strategy earn the dividends (total return)." : null,
  };
}

/** The shelf series research can run over, for coverage text: `ID first..last (name)`. */
export function shelfSeriesCoverage(): { id: string; first: string; last: string; kind: string }[] {
  return shelfSeriesDefs().map((d) => {
    const s = shelfSeries(d.id)!;
    return { id: d.id, first: s.coverage.first, last: s.coverage.last, kind: d.kind };
  });
}
