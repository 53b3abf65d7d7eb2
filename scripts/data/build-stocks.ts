// Builds data/stocks/: daily bars of a few liquid US stocks and ETFs (see data/stocks/SOURCES.md).
// Usage: npx tsx scripts/data/build-stocks.ts --mirror <folder of fetched snapshots>
import { execFileSync } from "node:child_process";
import path from "node:path";
import { mirrorDir, parseCsv, readSource, writeCsv, writeJson, type Source } from "./lib/source";

type Bar = [date: string, open: string, high: string, low: string, close: string, volume: string];
type Adjustment = { splits: string; dividends: string; volume: string };

const PMDARIMA = { repo: "alkaline-ml/pmdarima", commit: "4c2dfccb28f64d2c00a5e10b59c1d1a3e16576a9" };
const MPLFINANCE = { repo: "matplotlib/mplfinance", commit: "493811dac9a203de7ec148fb95504e7d3f400ba5" };
const TA4J_LPPL = { repo: "ta4j/ta4j", commit: "9ec053ddb99074af7b99ad1e79b5111d878b5940" };
const LPPL_DIR = "ta4j-examples/src/main/resources/ta4jexamples/analysis/lppl/sector-exhaustion-map";
const ETF_FROM = "2023-01-01";
const SECTOR_ETFS: [string, string][] = [
  ["XLB", "Materials Select Sector SPDR Fund"],
  ["XLC", "Communication Services Select Sector SPDR Fund"],
  ["XLE", "Energy Select Sector SPDR Fund"],
  ["XLF", "Financial Select Sector SPDR Fund"],
  ["XLI", "Industrial Select Sector SPDR Fund"],
  ["XLK", "Technology Select Sector SPDR Fund"],
  ["XLP", "Consumer Staples Select Sector SPDR Fund"],
  ["XLRE", "Real Estate Select Sector SPDR Fund"],
  ["XLU", "Utilities Select Sector SPDR Fund"],
  ["XLV", "Health Care Select Sector SPDR Fund"],
  ["XLY", "Consumer Discretionary Select Sector SPDR Fund"],
];
const NUM = /^\d+(\.\d+)?$/;

/** One file of a .tar.gz held in a snapshot (binary, so not through readSource). */
function readTarMember(mirror: string, src: Source, member: string): string {
  const gitDir = path.join(mirror, src.repo.replace("/", "+"), "repo");
  const archive = execFileSync("git", ["--git-dir", gitDir, "show", `${src.commit}:${src.path}`], { maxBuffer: 64 * 1024 * 1024 });
  return execFileSync("tar", ["-xzO", member], { input: archive, maxBuffer: 64 * 1024 * 1024, stdio: ["pipe", "pipe", "ignore"] }).toString("utf8");
}

function checked(ticker: string, bars: Bar[]): Bar[] {
  for (const b of bars) if (!/^\d{4}-\d{2}-\d{2}$/.test(b[0]) || b.slice(1).some((v) => !NUM.test(v))) throw new Error(`${ticker}: bad row ${b.join(",")}`);
  for (let i = 1; i < bars.length; i++) if (bars[i]![0] <= bars[i - 1]![0]) throw new Error(`${ticker}: dates not increasing at ${bars[i]![0]}`);
  return bars;
}

/** Yahoo's CSV download: Date,Open,High,Low,Close,Adj Close,Volume. Close is split-adjusted, Adj Close is not kept. */
function yahooCsv(text: string): Bar[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.join("|") !== "Date|Open|High|Low|Close|Adj Close|Volume") throw new Error(`unexpected header ${header}`);
  return rows.filter((r) => r.length === 7).map((r) => [r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[6]!]);
}

/** The Kaggle "price and volume data for all US stocks & ETFs" layout: Date,Open,High,Low,Close,Volume,OpenInt. */
function kaggleCsv(text: string, from: string): Bar[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.join("|") !== "Date|Open|High|Low|Close|Volume|OpenInt") throw new Error(`unexpected header ${header}`);
  return rows.filter((r) => r.length === 7 && r[0]! >= from).map((r) => [r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!]);
}

/** ta4j's Yahoo refresh: {"candles":[{start (09:30 New York, epoch seconds), low, high, open, close, volume}]}. */
function ta4jCandles(text: string, from: string): Bar[] {
  const { candles } = JSON.parse(text) as { candles: { start: string; low: string; high: string; open: string; close: string; volume: string }[] };
  return candles
    .map((c): Bar => [new Date(Number(c.start) * 1000).toISOString().slice(0, 10), c.open, c.high, c.low, c.close, c.volume])
    .filter((b) => b[0] >= from);
}

const YAHOO_2018: Adjustment = {
  splits: "applied by Yahoo up to the download (January 2018); later splits are not",
  dividends: "not applied (Yahoo's Adj Close was not kept)",
  volume: "split-adjusted like prices",
};

function main() {
  const mirror = mirrorDir();
  const items: { ticker: string; name: string; kind: string; source: Source; sliced_from: string | null; adjustment: Adjustment; bars: Bar[] }[] = [];

  const msft: Source = { ...PMDARIMA, path: "pmdarima/datasets/data/msft.tar.gz" };
  items.push({
    ticker: "MSFT",
    name: "Microsoft Corporation",
    kind: "stock",
    source: msft,
    sliced_from: "2010-01-01",
    adjustment: {
      splits: "applied (back-adjusted as of 2017-11-10)",
      dividends: "applied: prices multiplied back by the dividend factor (as of 2017-11-10), so they are not as traded",
      volume: "adjusted inversely to prices (not shares as traded)",
    },
    bars: kaggleCsv(readTarMember(mirror, msft, "msft.csv"), "2010-01-01"),
  });
  for (const [ticker, name, file] of [
    ["SPY", "SPDR S&P 500 ETF Trust", "yahoofinance-SPY-20080101-20180101.csv"],
    ["GOOG", "Alphabet Inc. Class C (Google Inc. class A before 2014-04-03)", "yahoofinance-GOOG-20040819-20180120.csv"],
  ] as const) {
    const src: Source = { ...MPLFINANCE, path: `examples/data/${file}` };
    items.push({ ticker, name, kind: ticker === "SPY" ? "etf" : "stock", source: src, sliced_from: null, adjustment: YAHOO_2018, bars: yahooCsv(readSource(mirror, src)) });
  }
  for (const [ticker, name] of SECTOR_ETFS) {
    const src: Source = { ...TA4J_LPPL, path: `${LPPL_DIR}/YahooFinance-${ticker}-PT1D-20190102_20260710.json` };
    items.push({
      ticker,
      name,
      kind: "etf",
      source: src,
      sliced_from: ETF_FROM,
      adjustment: {
        splits: "applied (Yahoo, as of 2026-07-10)",
        dividends: "applied by the source: open, high, low, close each multiplied by Yahoo's adjclose/close of the day",
        volume: "as Yahoo reports it (not dividend-adjusted)",
      },
      bars: ta4jCandles(readSource(mirror, src), ETF_FROM),
    });
  }

  const catalog = items.map(({ bars, ...item }) => {
    const rows = writeCsv(`data/stocks/${item.ticker}.csv`, ["date", "open", "high", "low", "close", "volume"], checked(item.ticker, bars));
    console.log(`${item.ticker}.csv\t${bars[0]![0]}..${bars[rows - 1]![0]}\t${rows} rows`);
    return { ...item, file: `${item.ticker}.csv`, currency: "USD", first: bars[0]![0], last: bars[rows - 1]![0], rows };
  });
  writeJson("data/stocks/catalog.json", catalog);
}

main();
