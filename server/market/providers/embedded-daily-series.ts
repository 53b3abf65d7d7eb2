// Real historical daily bars shipped inside npm packages (no network):
//   AAPL  2013-05-13 .. 2018-05-11  @observablehq/sample-datasets/aapl.csv (Yahoo Finance export, 1,260 days)
//   SPX   2000-01-03 .. 2020-04-17  vega-datasets/data/sp500-2000.csv (S&P 500 index level, 5,104 days)
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

function scale(bar: DailyBar, priceFactor: number): DailyBar {
  if (priceFactor === 1) return bar;
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return {
    date: bar.date,
    open: r(bar.open * priceFactor),
    high: r(bar.high * priceFactor),
    low: r(bar.low * priceFactor),
    close: r(bar.close * priceFactor),
    volume: Math.round(bar.volume / priceFactor),
  };
}

function load(ticker: string): Loaded | undefined {
  const hit = cache.get(ticker);
  if (hit) return hit;
  const def = SERIES.find((s) => s.ticker === ticker);
  if (!def) return undefined;
  // The file list is fixed above; the ignore keeps Next from tracing the whole project for this read.
  const file = parseCsv(fs.readFileSync(path.join(/*turbopackIgnore: true*/ root(), def.file), "utf8"), def.columns);
  // Factor from the file's basis to "as traded": splits after the bar and up to the file's as-of date.
  const toRaw = (date: string) => def.splits.filter((s) => s.date > date && s.date <= def.adjustedAsOf).reduce((f, s) => f * s.ratio, 1);
  // Factor from the file's basis to "adjusted for every split known": splits after the file's as-of date.
  const toAdjusted = def.splits.filter((s) => s.date > def.adjustedAsOf).reduce((f, s) => f / s.ratio, 1);
  const loaded = { def, file, raw: file.map((b) => scale(b, toRaw(b.date))), adjusted: file.map((b) => scale(b, toAdjusted)) };
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
