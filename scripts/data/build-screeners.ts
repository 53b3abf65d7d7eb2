// Builds data/screeners/: the S&P 500 constituent list with Yahoo Finance figures, as datasets/s-and-p-500-companies-financials
// publishes it (see data/screeners/SOURCES.md). Usage: npx tsx scripts/data/build-screeners.ts --mirror <folder of fetched snapshots>
import { lastChanged, mirrorDir, parseCsv, readSource, writeCsv, type Source } from "./lib/source";

const REPO = { repo: "datasets/s-and-p-500-companies-financials", commit: "44d0ca307550c1615663da85fae5e79efbc7b3a1" };
const FINANCIALS: Source = { ...REPO, path: "data/constituents-financials.csv" };

const HEADER = "Symbol|Name|Sector|Price|Price/Earnings|Dividend Yield|Earnings/Share|52 Week Low|52 Week High|Market Cap|EBITDA|Price/Sales|Price/Book|SEC Filings";
const OUT = [
  "symbol",
  "name",
  "gics_sub_industry",
  "price",
  "pe_trailing",
  "dividend_yield",
  "eps_trailing",
  "week52_low",
  "week52_high",
  "market_cap",
  "ebitda",
  "price_to_sales",
  "price_to_book",
];

function main() {
  const mirror = mirrorDir();
  const [header, ...rows] = parseCsv(readSource(mirror, FINANCIALS));
  if (header?.join("|") !== HEADER) throw new Error(`unexpected header ${header}`);
  const kept = rows.filter((r) => r.length === 14).map((r) => r.slice(0, 13));
  for (const r of kept) for (const v of r.slice(3)) if (v !== "" && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) throw new Error(`not a number in ${r[0]}: ${v}`);
  const n = writeCsv("data/screeners/sp500-constituents.csv", OUT, kept);
  console.log(`sp500-constituents.csv\t${n} rows\tfile committed ${lastChanged(mirror, FINANCIALS)}`);
}

main();
