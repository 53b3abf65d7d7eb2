// Real historical daily bars of US stocks, ETFs and the S&P 500 index (no network):
//   AAPL  2013-05-13 .. 2018-05-11  @observablehq/sample-datasets/aapl.csv (Yahoo Finance export, 1,260 days)
//   SPX   2000-01-03 .. 2020-04-17  vega-datasets/data/sp500-2000.csv (S&P 500 index level, 5,105 days)
//   and every ticker of data/stocks/catalog.json (MSFT, SPY, GOOG, the 11 SPDR sector ETFs), read through the data-file
//   floor, each with the adjustment basis its catalog entry states (stock-basis.ts: what adjusted=true and false serve).
// The AAPL file's prices are split-adjusted as of 2018 (the 7:1 split of 2014-06-09 applied, the 4:1 split of
// 2020-08-31 not yet). From it we derive, with the split table only (no other change):
//   as traded (adjusted=false): x7 before 2014-06-09, volume /7;
//   adjusted today (adjusted=true, as Polygon): /4 throughout, volume x4.
// Volume in the S&P 500 file is the index's reported volume; there are no splits.
import fs from "node:fs";
import path from "node:path";
import { cached } from "./data-file";
import { catalogStockSeries, NPM_SERIES_BASIS, type SeriesBasis, type StockSeriesDef } from "./stock-basis";
import type { Coverage, DailyBar } from "./types";

type Split = { date: string; ratio: number };
type SeriesDef = {
  ticker: string;
  file: string;
  columns: { date: string; open: string; high: string; low: string; close: string; volume: string };
  splits: Split[];
  adjustedAsOf: string;
  description: string;
};

const NPM_SERIES: SeriesDef[] = [
  {
    ticker: "AAPL",
    file: "node_modules/@observablehq/sample-datasets/aapl.csv",
    columns: { date: "Date", open: "Open", high: "High", low: "Low", close: "Close", volume: "Volume" },
    splits: [
      { date: "2014-06-09", ratio: 7 },
      { date: "2020-08-31", ratio: 4 },
    ],
    adjustedAsOf: "2018-05-11",
    description: "Apple Inc. daily OHLCV (Yahoo Finance export shipped in @observablehq/sample-datasets)",
  },
  {
    ticker: "SPX",
    file: "node_modules/vega-datasets/data/sp500-2000.csv",
    columns: { date: "date", open: "open", high: "high", low: "low", close: "close", volume: "volume" },
    splits: [],
    adjustedAsOf: "2020-04-17",
    description: "S&P 500 index daily levels (vega-datasets sp500-2000.csv)",
  },
];

/** The npm-package series first (their order is the docs'), then the shelf's stock files in catalog order. */
function allSeries(): (SeriesDef | StockSeriesDef)[] {
  return [...NPM_SERIES, ...cached("stock-series-defs", catalogStockSeries)];
}

/** Every ticker the embedded bars hold. */
export function embeddedTickers(): string[] {
  return allSeries().map((s) => s.ticker);
}

/** `raw` is null when the file holds no as-traded prices (a dividend-adjusted file). */
type Loaded = { file: DailyBar[]; adjusted: DailyBar[]; raw: DailyBar[] | null; basis: SeriesBasis };
const cache = new Map<string, Loaded>();

function root(): string {
  return process.env.MARKET_DATA_ROOT ?? process.cwd();
}

export function parseCsv(text: string, cols: SeriesDef["columns"]): DailyBar[] {
  const lines = text.trim().split(/\r?\n/);
  const header = lines[0]!.split(",");
  const idx = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`embedded data: column ${name} missing`);
    return i;
  };
  const [d, o, h, l, c, v] = [idx(cols.date), idx(cols.open), idx(cols.high), idx(cols.low), idx(cols.close), idx(cols.volume)];
  const out: DailyBar[] = [];
  for (const line of lines.slice(1)) {
    const f = line.split(",");
    const bar = { date: f[d]!, open: Number(f[o]), high: Number(f[h]), low: Number(f[l]), close: Number(f[c]), volume: Number(f[v]) };
    // Rows without trades ("null" in some exports) are skipped: no bar on a day without trades.
    if (![bar.open, bar.high, bar.low, bar.close, bar.volume].every(Number.isFinite)) continue;
    out.push(bar);
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : 1));
}

// Both directions keep every digit. Undoing later splits multiplies a price by a whole number, and a price
// with the file's 6 decimals times a whole number has 6 decimals: rounding the product to 6 decimals only
// removes binary floating-point noise (116.150002 x 7 = 813.050014, not 813.0500140000001). Applying splits
// after the file's date divides by the ratios (4 for AAPL's 2020 split); a power of two divides a binary
// float exactly, so nothing is rounded (116.150002 / 4 = 29.0375005). Volumes scale the other way and stay
// whole: the file's pre-2014 AAPL volumes are all multiples of 7 (embedded-daily-series.test.ts checks it).
const FILE_DECIMALS = 1e6;

function asTraded(bar: DailyBar, ratio: number): DailyBar {
  if (ratio === 1) return bar;
  const p = (n: number) => Math.round(n * ratio * FILE_DECIMALS) / FILE_DECIMALS;
  return { date: bar.date, open: p(bar.open), high: p(bar.high), low: p(bar.low), close: p(bar.close), volume: Math.round(bar.volume / ratio) };
}

function adjustedToday(bar: DailyBar, ratio: number): DailyBar {
  if (ratio === 1) return bar;
  return { date: bar.date, open: bar.open / ratio, high: bar.high / ratio, low: bar.low / ratio, close: bar.close / ratio, volume: bar.volume * ratio };
}

function load(ticker: string): Loaded | undefined {
  const hit = cache.get(ticker);
  if (hit) return hit;
  const def = allSeries().find((s) => s.ticker === ticker);
  if (!def) return undefined;
  if ("load" in def) {
    const loaded = def.load();
    cache.set(ticker, loaded);
    return loaded;
  }
  // The file list is fixed above; the ignore keeps Next from tracing the whole project for this read.
  const file = parseCsv(fs.readFileSync(path.join(/*turbopackIgnore: true*/ root(), def.file), "utf8"), def.columns);
  // From the file's basis to "as traded": the splits after the bar, up to the file's as-of date.
  const rawRatio = (date: string) => def.splits.filter((s) => s.date > date && s.date <= def.adjustedAsOf).reduce((f, s) => f * s.ratio, 1);
  // From the file's basis to "adjusted for every split known": the splits after the file's as-of date.
  const laterRatio = def.splits.filter((s) => s.date > def.adjustedAsOf).reduce((f, s) => f * s.ratio, 1);
  const loaded = {
    file,
    raw: file.map((b) => asTraded(b, rawRatio(b.date))),
    adjusted: file.map((b) => adjustedToday(b, laterRatio)),
    basis: NPM_SERIES_BASIS[ticker]!,
  };
  cache.set(ticker, loaded);
  return loaded;
}

/**
 * The bars `adjusted` asks for: undefined when the ticker is not held, null when it is held but not on that basis
 * (as traded, from a dividend-adjusted file).
 */
export function embeddedDailySeries(ticker: string, adjusted: boolean): DailyBar[] | null | undefined {
  const s = load(ticker);
  return s ? (adjusted ? s.adjusted : s.raw) : undefined;
}

/** First and last day held on the `adjusted` basis (adjusted by default); null when none. */
export function embeddedCoverage(ticker: string, adjusted = true): Coverage | null {
  const s = load(ticker);
  const bars = s ? (adjusted ? s.adjusted : s.raw) : null;
  if (!bars || bars.length === 0) return null;
  return { first: bars[0]!.date, last: bars[bars.length - 1]!.date };
}

/** What the file behind a ticker is and what adjusted=true and false serve; null when it is not held. */
export function embeddedSeriesBasis(ticker: string): SeriesBasis | null {
  return load(ticker)?.basis ?? null;
}

export function embeddedSeriesInfo(): { ticker: string; description: string; coverage: Coverage | null; basis: SeriesBasis }[] {
  return allSeries().map((s) => ({ ticker: s.ticker, description: s.description, coverage: embeddedCoverage(s.ticker), basis: load(s.ticker)!.basis }));
}

/** A short label of what adjusted=true serves and whether adjusted=false is held, for coverage text. */
export function basisLabel(b: SeriesBasis): string {
  if (b.kind === "index") return "index levels";
  if (b.dividend_adjusted) return "split- and dividend-adjusted, total-return prices; adjusted=false not held";
  return `split-adjusted, not dividend-adjusted; adjusted=false as traded${b.as_traded_from ? ` from ${b.as_traded_from}` : ""}`;
}

/** The embedded tickers grouped by the days they cover and their basis (the 11 sector ETFs are one group), in order. */
export function embeddedSeriesGroups(): { tickers: string[]; first: string; last: string; label: string }[] {
  const groups: { tickers: string[]; first: string; last: string; label: string }[] = [];
  for (const s of embeddedSeriesInfo()) {
    if (!s.coverage) continue;
    const label = basisLabel(s.basis);
    const g = groups.find((x) => x.first === s.coverage!.first && x.last === s.coverage!.last && x.label === label && s.basis.kind === "etf");
    if (g) g.tickers.push(s.ticker);
    else groups.push({ tickers: [s.ticker], first: s.coverage.first, last: s.coverage.last, label });
  }
  return groups;
}
