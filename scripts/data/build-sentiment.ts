// Builds data/sentiment/vix-daily.csv: CBOE's VIX daily OHLC from 2000 on (see data/sentiment/SOURCES.md).
// Usage: npx tsx scripts/data/build-sentiment.ts --mirror <folder of fetched snapshots>
import { mirrorDir, parseCsv, readSource, writeCsv, type Source } from "./lib/source";

const VIX: Source = { repo: "datasets/finance-vix", commit: "6f56e2760520824b787cf6b85945c62186d38bc6", path: "data/vix-daily.csv" };
const FROM = "2000-01-01";

function main() {
  const [header, ...rows] = parseCsv(readSource(mirrorDir(), VIX));
  if (header?.join("|") !== "DATE|OPEN|HIGH|LOW|CLOSE") throw new Error(`unexpected header ${header}`);
  const kept = rows.filter((r) => r.length === 5 && r[0]! >= FROM);
  for (const r of kept) if (!/^\d{4}-\d{2}-\d{2}$/.test(r[0]!) || r.slice(1).some((v) => !/^\d+(\.\d+)?$/.test(v))) throw new Error(`bad row ${r}`);
  const n = writeCsv("data/sentiment/vix-daily.csv", ["date", "open", "high", "low", "close"], kept);
  console.log(`vix-daily.csv\t${kept[0]![0]}..${kept[n - 1]![0]}\t${n} rows`);
}

main();
