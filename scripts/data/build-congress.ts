// Builds data/congress/senate-ptr-transactions.csv: US Senate periodic transaction reports as transcribed by
// senate-stock-watcher-data, disclosures received 2020-01-01 on (see data/congress/SOURCES.md).
// Also writes data/recorded/senate-stock-watcher/all_daily_summaries.json: the reports received RECORDED_FROM on, exactly
// as the aggregate file publishes them (its objects unchanged, in its order), for the live adapter's replay test.
// Usage: npx tsx scripts/data/build-congress.ts --mirror <folder of fetched snapshots>
import { mirrorDir, readSource, writeCsv, writeJson, type Source } from "./lib/source";

const SUMMARIES: Source = {
  repo: "timothycarambat/senate-stock-watcher-data",
  commit: "384e08e84d809477cdfba7d52479147fbe5e6bd7",
  path: "aggregate/all_daily_summaries.json",
};
const FROM = "2020-01-01";
const RECORDED_FROM = "2021-02-01";

type Tx = { transaction_date: string; owner: string; ticker: string; asset_description: string; asset_type: string; type: string; amount: string; comment: string };
type Filing = { first_name: string; last_name: string; office: string; ptr_link: string; date_recieved: string; bioguide?: string; transactions: Tx[] };

/** MM/DD/YYYY (as the Senate's eFD pages print dates) to YYYY-MM-DD. */
function iso(us: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(us);
  if (!m) throw new Error(`not an MM/DD/YYYY date: ${us}`);
  return `${m[3]}-${m[1]}-${m[2]}`;
}

function main() {
  const filings = JSON.parse(readSource(mirrorDir(), SUMMARIES)) as Filing[];
  const rows = filings
    .filter((f) => iso(f.date_recieved) >= FROM)
    .flatMap((f) =>
      f.transactions.map((t) => [
        iso(t.transaction_date),
        iso(f.date_recieved),
        `${f.first_name} ${f.last_name}`,
        f.bioguide ?? "",
        "senate",
        t.owner,
        t.ticker === "--" ? "" : t.ticker,
        t.asset_description,
        t.asset_type,
        t.type,
        t.amount,
        t.comment === "--" ? "" : t.comment,
        f.ptr_link,
      ]),
    )
    .sort((a, b) => (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : a[2]! < b[2]! ? -1 : a[2]! > b[2]! ? 1 : 0));
  const header = [
    "transaction_date",
    "disclosure_date",
    "member",
    "bioguide_id",
    "chamber",
    "owner",
    "ticker",
    "asset_description",
    "asset_type",
    "type",
    "amount_range",
    "comment",
    "ptr_link",
  ];
  const n = writeCsv("data/congress/senate-ptr-transactions.csv", header, rows);
  console.log(`senate-ptr-transactions.csv\t${rows[0]![1]}..${rows[n - 1]![1]}\t${n} rows`);
  const recorded = filings.filter((f) => iso(f.date_recieved) >= RECORDED_FROM);
  writeJson("data/recorded/senate-stock-watcher/all_daily_summaries.json", recorded);
  console.log(`recorded all_daily_summaries.json\t${recorded.length} reports, ${recorded.reduce((k, f) => k + f.transactions.length, 0)} transactions`);
}

main();
