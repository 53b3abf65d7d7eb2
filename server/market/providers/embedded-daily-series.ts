// Real historical daily bars shipped inside npm packages (no network):
//   AAPL  2013-05-13 .. 2018-05-11  @observablehq/sample-datasets/aapl.csv (Yahoo Finance export, 1,260 days)
//   SPX   2000-01-03 .. 2020-04-17  vega-datasets/data/sp500-2000.csv (S&P 500 index level, 5,105 days)
// The AAPL file's prices are split-adjusted as of 2018 (the 7:1 split of 2014-06-09 applied, the 4:1 split of
// 2020-08-31 not yet). From it we derive, with the split table only (no other change):
//   as traded (adjusted=false): x7 before 2014-06-09, volume /7;
//   adjusted today (adjusted=true, as Polygon): /4 throughout, volume x4.
// Volume in the S&P 500 file is the index's reported volume; there are no splits.
import fs from "node:fs";
import path from "node:path";
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

const SERIES: SeriesDef[] = [
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

export const EMBEDDED_TICKERS = SERIES.map((s) => s.ticker);

type Loaded = { file: DailyBar[]; def: SeriesDef; adjusted: DailyBar[]; raw: DailyBar[] };
const cache = new Map<string, Loaded>();

function root(): string {
  return process.env.MARKET_DATA_ROOT ?? process.cwd();
}

function parseCsv(text: string, cols: SeriesDef["columns"]): DailyBar[] {
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
  const def = SERIES.find((s) => s.ticker === ticker);
  if (!def) return undefined;
  // The file list is fixed above; the ignore keeps Next from tracing the whole project for this read.
  const file = parseCsv(fs.readFileSync(path.join(/*turbopackIgnore: true*/ root(), def.file), "utf8"), def.columns);
  // From the file's basis to "as traded": the splits after the bar, up to the file's as-of date.
  const rawRatio = (date: string) => def.splits.filter((s) => s.date > date && s.date <= def.adjustedAsOf).reduce((f, s) => f * s.ratio, 1);
  // From the file's basis to "adjusted for every split known": the splits after the file's as-of date.
  const laterRatio = def.splits.filter((s) => s.date > def.adjustedAsOf).reduce((f, s) => f * s.ratio, 1);
  const loaded = { def, file, raw: file.map((b) => asTraded(b, rawRatio(b.date))), adjusted: file.map((b) => adjustedToday(b, laterRatio)) };
  cache.set(ticker, loaded);
  return loaded;
}

export function embeddedDailySeries(ticker: string, adjusted: boolean): DailyBar[] | undefined {
  const s = load(ticker);
  return s ? (adjusted ? s.adjusted : s.raw) : undefined;
}

export function embeddedCoverage(ticker: string): Coverage | null {
  const s = load(ticker);
  if (!s || s.file.length === 0) return null;
  return { first: s.file[0]!.date, last: s.file[s.file.length - 1]!.date };
}

export function embeddedSeriesInfo(): { ticker: string; description: string; coverage: Coverage | null }[] {
  return SERIES.map((s) => ({ ticker: s.ticker, description: s.description, coverage: embeddedCoverage(s.ticker) }));
}
