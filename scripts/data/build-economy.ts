// Builds data/economy/: one date,value CSV per FRED series and catalog.json describing them (see data/economy/SOURCES.md).
// Usage: npx tsx scripts/data/build-economy.ts --mirror <folder of fetched snapshots>
import { dateValueRows, lastChanged, mirrorDir, readSource, valueRange, writeCsv, writeJson, type Source } from "./lib/source";

const BILLSNOW = { repo: "billsnowzx/USRecessionOdds", commit: "2bd752c850363d6b71f07ae0acae67b46df1290f" };
const MACRO_MONITOR = { repo: "sivamsapingali/Codex_Macro-Monitor", commit: "7fb97556145cd3604b1caab9002193df4f3eee07" };
const DEERFIELD = { repo: "deerfieldgreen/FRED_data", commit: "18dbe8e6fd759be1fcabe044609208b6215bccb8" };
const RATES_2021 = { repo: "economics-databases/Interest-rate", commit: "1611f9ba18e6fcd0bddca238a98f9e41a4350043" };

// Daily series are cut to this date to keep the shelf light; monthly and quarterly series are kept whole.
const DAILY_FROM = "2000-01-01";

type Meta = {
  id: string;
  title: string;
  units: string;
  frequency: string;
  seasonal_adjustment: string;
  publisher: string;
  release: string;
};
type Entry = Meta & { source: Source; retrieved: string; retrieved_evidence: string; daily?: boolean };

const S = (base: { repo: string; commit: string }, p: string): Source => ({ ...base, path: p });

// Descriptive fields as FRED's series pages state them (fred.stlouisfed.org/series/<id>); none of them is a number.
const SERIES: Entry[] = [
  {
    id: "FEDFUNDS",
    title: "Federal Funds Effective Rate",
    units: "Percent",
    frequency: "Monthly",
    seasonal_adjustment: "Not Seasonally Adjusted",
    publisher: "Board of Governors of the Federal Reserve System (US)",
    release: "H.15 Selected Interest Rates",
    source: S(MACRO_MONITOR, "data/FEDFUNDS.csv"),
    retrieved: "2026-01-02",
    retrieved_evidence: "data/metadata.csv last_updated 2026-01-02 13:51:38 (fredapi pull)",
  },
  {
    id: "DFF",
    title: "Federal Funds Effective Rate",
    units: "Percent",
    frequency: "Daily, 7-Day",
    seasonal_adjustment: "Not Seasonally Adjusted",
    publisher: "Board of Governors of the Federal Reserve System (US)",
    release: "H.15 Selected Interest Rates",
    source: S(DEERFIELD, "data/dff/data.csv"),
    retrieved: "",
    retrieved_evidence: "commit time of the nightly fredapi job's last change to the file",
    daily: true,
  },
  ...(
    [
      ["DGS3MO", "Market Yield on U.S. Treasury Securities at 3-Month Constant Maturity, Quoted on an Investment Basis", S(RATES_2021, "DGS3MO.csv")],
      ["DGS2", "Market Yield on U.S. Treasury Securities at 2-Year Constant Maturity, Quoted on an Investment Basis", S(MACRO_MONITOR, "data/DGS2.csv")],
      ["DGS10", "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity, Quoted on an Investment Basis", S(BILLSNOW, "data/raw/DGS10.csv")],
      ["DGS30", "Market Yield on U.S. Treasury Securities at 30-Year Constant Maturity, Quoted on an Investment Basis", S(MACRO_MONITOR, "data/DGS30.csv")],
      ["DTB3", "3-Month Treasury Bill Secondary Market Rate, Discount Basis", S(BILLSNOW, "data/raw/DTB3.csv")],
    ] as const
  ).map(([id, title, source]): Entry => ({
    id,
    title,
    units: "Percent",
    frequency: "Daily",
    seasonal_adjustment: "Not Seasonally Adjusted",
    publisher: "Board of Governors of the Federal Reserve System (US)",
    release: "H.15 Selected Interest Rates",
    source,
    ...retrievedFor(source),
    daily: true,
  })),
  {
    id: "CPIAUCSL",
    title: "Consumer Price Index for All Urban Consumers: All Items in U.S. City Average",
    units: "Index 1982-1984=100",
    frequency: "Monthly",
    seasonal_adjustment: "Seasonally Adjusted",
    publisher: "U.S. Bureau of Labor Statistics",
    release: "Consumer Price Index",
    source: S(MACRO_MONITOR, "data/CPIAUCSL.csv"),
    retrieved: "2026-01-02",
    retrieved_evidence: "data/metadata.csv last_updated 2026-01-02 13:51:25 (fredapi pull)",
  },
  {
    id: "UNRATE",
    title: "Unemployment Rate",
    units: "Percent",
    frequency: "Monthly",
    seasonal_adjustment: "Seasonally Adjusted",
    publisher: "U.S. Bureau of Labor Statistics",
    release: "Employment Situation",
    source: S(BILLSNOW, "data/raw/UNRATE.csv"),
    ...retrievedFor(S(BILLSNOW, "data/raw/UNRATE.csv")),
  },
  {
    id: "PAYEMS",
    title: "All Employees, Total Nonfarm",
    units: "Thousands of Persons",
    frequency: "Monthly",
    seasonal_adjustment: "Seasonally Adjusted",
    publisher: "U.S. Bureau of Labor Statistics",
    release: "Employment Situation",
    source: S(BILLSNOW, "data/raw/PAYEMS.csv"),
    ...retrievedFor(S(BILLSNOW, "data/raw/PAYEMS.csv")),
  },
  {
    id: "GDP",
    title: "Gross Domestic Product",
    units: "Billions of Dollars",
    frequency: "Quarterly",
    seasonal_adjustment: "Seasonally Adjusted Annual Rate",
    publisher: "U.S. Bureau of Economic Analysis",
    release: "Gross Domestic Product",
    source: S(MACRO_MONITOR, "data/GDP.csv"),
    retrieved: "2026-01-02",
    retrieved_evidence: "data/metadata.csv last_updated 2026-01-02 13:51:16 (fredapi pull)",
  },
  {
    id: "GDPC1",
    title: "Real Gross Domestic Product",
    units: "Billions of Chained 2017 Dollars",
    frequency: "Quarterly",
    seasonal_adjustment: "Seasonally Adjusted Annual Rate",
    publisher: "U.S. Bureau of Economic Analysis",
    release: "Gross Domestic Product",
    source: S(MACRO_MONITOR, "data/GDPC1.csv"),
    retrieved: "2026-01-02",
    retrieved_evidence: "data/metadata.csv last_updated 2026-01-02 13:51:17 (fredapi pull)",
  },
  {
    id: "GFDEBTN",
    title: "Federal Debt: Total Public Debt",
    units: "Millions of Dollars",
    frequency: "Quarterly",
    seasonal_adjustment: "Not Seasonally Adjusted",
    publisher: "U.S. Department of the Treasury. Fiscal Service",
    release: "Z.1 Financial Accounts of the United States (FRED's release for this series)",
    source: S(DEERFIELD, "data/total_public_debt/data.csv"),
    retrieved: "",
    retrieved_evidence: "commit time of the fredapi job's last change to the file",
  },
];

function retrievedFor(src: Source): { retrieved: string; retrieved_evidence: string } {
  if (src.repo === BILLSNOW.repo)
    return { retrieved: "2026-03-30", retrieved_evidence: "data/raw/<ID>.metadata.json pull_timestamp_utc 2026-03-30T15:36:49Z (fredgraph.csv download)" };
  if (src.repo === MACRO_MONITOR.repo) return { retrieved: "2026-01-02", retrieved_evidence: "data/metadata.csv last_updated 2026-01-02 (fredapi pull)" };
  return { retrieved: "", retrieved_evidence: "commit time of the file's last change (FRED's own CSV download)" };
}

// Snapshots of whole series, each the values FRED served on one date (see data/economy/SOURCES.md, "Vintages").
const VINTAGES: { id: string; snapshots: { vintage_date: string; source: Source }[] }[] = ["UNRATE", "PAYEMS"].map((id) => ({
  id,
  snapshots: [
    { vintage_date: "2026-01-02", source: S(MACRO_MONITOR, `data/${id}.csv`) },
    { vintage_date: "2026-03-30", source: S(BILLSNOW, `data/vintages/${id}.csv`) },
  ],
}));

function writeVintages(mirror: string) {
  for (const v of VINTAGES) {
    const rows = v.snapshots.flatMap((snap) => dateValueRows(readSource(mirror, snap.source)).map(([date, value]) => [snap.vintage_date, date, value]));
    const n = writeCsv(`data/economy/vintages/${v.id}.csv`, ["vintage_date", "date", "value"], rows);
    console.log(`vintages/${v.id}.csv\t${n} rows`);
  }
}

function main() {
  const mirror = mirrorDir();
  const catalog = SERIES.map((e) => {
    const rows = dateValueRows(readSource(mirror, e.source), e.daily ? DAILY_FROM : undefined);
    const rowCount = writeCsv(`data/economy/series/${e.id}.csv`, ["date", "value"], rows);
    const range = valueRange(rows);
    const retrieved = e.retrieved || lastChanged(mirror, e.source).slice(0, 10);
    const { daily: _daily, retrieved: _r, ...meta } = e;
    return {
      ...meta,
      fred_id: e.id,
      file: `series/${e.id}.csv`,
      observation_start: range.first,
      observation_end: range.last,
      rows: rowCount,
      values: range.values,
      sliced_from: e.daily ? DAILY_FROM : null,
      retrieved,
    };
  });
  writeJson("data/economy/catalog.json", catalog);
  writeVintages(mirror);
  for (const c of catalog) console.log(`${c.id}\t${c.observation_start}..${c.observation_end}\t${c.rows} rows\t${c.values} values\tretrieved ${c.retrieved}`);
}

main();
