// What each embedded stock file's prices are (their adjustment basis), and so what `adjusted=true` and `adjusted=false`
// can truthfully serve from it. `adjusted` keeps Polygon's meaning: true is adjusted for every split known, false is as
// traded. A file whose prices are back-adjusted for dividends holds no as-traded prices at all: adjusted=false is refused
// (403 not_included) rather than served from it, and its adjusted=true answer says its prices are total-return prices.
import { csvNumber, csvRows } from "./csv-rows";
import { dataFile, dataText } from "./data-file";
import type { DailyBar } from "./types";

export type SeriesBasis = {
  kind: "stock" | "etf" | "index";
  name: string;
  /** Where the file came from, in one line. */
  source: string;
  /** What adjusted=true serves. */
  adjusted: string;
  /** What adjusted=false serves, or why it is refused. */
  as_traded: string;
  /** false: adjusted=false answers 403 not_included (the file holds no as-traded prices). */
  as_traded_held: boolean;
  /** The first day of as-traded prices when they start later than the file. */
  as_traded_from: string | null;
  /** Prices back-adjusted for dividends (total-return prices). */
  dividend_adjusted: boolean;
  volume: string;
};

/** The two series shipped in npm packages (embedded-daily-series.ts derives their bars with its split table). */
export const NPM_SERIES_BASIS: Record<string, SeriesBasis> = {
  AAPL: {
    kind: "stock",
    name: "Apple Inc.",
    source: "Yahoo Finance export shipped in @observablehq/sample-datasets (aapl.csv, split-adjusted as of 2018-05-11)",
    adjusted: "split-adjusted for every split to date (7:1 of 2014-06-09, 4:1 of 2020-08-31); not dividend-adjusted",
    as_traded: "as traded: the 7:1 split undone before 2014-06-09",
    as_traded_held: true,
    as_traded_from: null,
    dividend_adjusted: false,
    volume: "shares, scaled with the splits",
  },
  SPX: {
    kind: "index",
    name: "S&P 500 index",
    source: "vega-datasets sp500-2000.csv (index levels)",
    adjusted: "index levels (an index has no splits or dividends)",
    as_traded: "index levels, the same as adjusted",
    as_traded_held: true,
    as_traded_from: null,
    dividend_adjusted: false,
    volume: "the index's reported volume",
  },
};

type Split = { date: string; ratio: number };
type CatalogEntry = {
  ticker: string;
  name: string;
  kind: "stock" | "etf";
  source: { repo: string; commit: string; path: string };
  adjustment: { splits: string; dividends: string; volume: string };
  file: string;
  first: string;
  last: string;
};

// Facts from data/stocks/SOURCES.md the catalog states only in words: splits after a file's download that adjusted=true
// applies (GOOG's 20-for-1 of 2022-07-15), and where a split-adjusted file's prices start being as traded (GOOG before
// 2014-04-03 is the old Google class A share, halved by Yahoo: not a price of the share the ticker names).
const LATER_SPLITS: Record<string, Split[]> = { GOOG: [{ date: "2022-07-15", ratio: 20 }] };
const AS_TRADED_FROM: Record<string, string> = { GOOG: "2014-04-03" };

export type StockSeriesDef = {
  ticker: string;
  description: string;
  load(): { file: DailyBar[]; adjusted: DailyBar[]; raw: DailyBar[] | null; basis: SeriesBasis };
};

function readBars(file: string): DailyBar[] {
  const out: DailyBar[] = [];
  for (const r of csvRows(dataText(`stocks/${file}`))) {
    const n = (col: string) => csvNumber(r[col]);
    const [open, high, low, close, volume] = [n("open"), n("high"), n("low"), n("close"), n("volume")];
    if (open === null || high === null || low === null || close === null || volume === null) continue;
    out.push({ date: r.date!, open, high, low, close, volume });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : 1));
}

// Dividing a price of at most 6 decimals by a split ratio of 20 gives at most 8: rounding there only removes
// floating-point noise (the exact decimal quotient is kept).
const splitPrice = (p: number, ratio: number) => Math.round((p / ratio) * 1e8) / 1e8;

function basisOf(e: CatalogEntry): SeriesBasis {
  const source = `${e.source.repo} @ ${e.source.commit.slice(0, 8)} : ${e.source.path}`;
  const later = LATER_SPLITS[e.ticker] ?? [];
  const from = AS_TRADED_FROM[e.ticker];
  const laterText = later.map((s) => `${s.ratio}:1 of ${s.date}`).join(", ");
  if (e.adjustment.dividends.startsWith("applied"))
    return {
      kind: e.kind,
      name: e.name,
      source,
      adjusted: `split- and dividend-adjusted as of ${e.last} (total-return prices, not quotes anyone traded at)`,
      as_traded: `not held: the file is back-adjusted for dividends, so adjusted=false answers 403 not_included`,
      as_traded_held: false,
      as_traded_from: null,
      dividend_adjusted: true,
      volume: e.adjustment.volume,
    };
  return {
    kind: e.kind,
    name: e.name,
    source,
    adjusted:
      `split-adjusted${laterText ? ` (including the ${laterText})` : ""}; not dividend-adjusted` +
      (from ? `; rows before ${from} are the earlier share class as Yahoo shows it under ${e.ticker}` : ""),
    as_traded: from ? `as traded from ${from} (earlier rows are another share class); before it, not held` : "as traded (no split in the file's span or since)",
    as_traded_held: true,
    as_traded_from: from ?? null,
    dividend_adjusted: false,
    volume: e.adjustment.volume,
  };
}

/** The data/stocks catalog's tickers, each loaded on first use. */
export function catalogStockSeries(): StockSeriesDef[] {
  return dataFile<CatalogEntry[]>("stocks/catalog.json").map((e) => ({
    ticker: e.ticker,
    description: `${e.name} daily OHLCV (${e.source.repo})`,
    load() {
      const file = readBars(e.file);
      const basis = basisOf(e);
      const ratio = (LATER_SPLITS[e.ticker] ?? []).reduce((f, s) => f * s.ratio, 1);
      const adjusted =
        ratio === 1
          ? file
          : file.map((b) => ({
              date: b.date,
              open: splitPrice(b.open, ratio),
              high: splitPrice(b.high, ratio),
              low: splitPrice(b.low, ratio),
              close: splitPrice(b.close, ratio),
              volume: b.volume * ratio,
            }));
      const from = AS_TRADED_FROM[e.ticker];
      const raw = basis.as_traded_held ? (from ? file.filter((b) => b.date >= from) : file) : null;
      return { file, adjusted, raw, basis };
    },
  }));
}
