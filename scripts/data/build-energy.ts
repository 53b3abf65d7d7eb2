// Builds data/energy/: EIA spot prices (WTI, Brent, Henry Hub) and the EIA weekly US regular gasoline retail price
// (see data/energy/SOURCES.md). Usage: npx tsx scripts/data/build-energy.ts --mirror <folder of fetched snapshots>
import { dateValueRows, mirrorDir, readSource, valueRange, writeCsv, writeJson, type Source } from "./lib/source";

const OIL = { repo: "datasets/oil-prices", commit: "2d75ce3a792c2f152619c10272e86052be3a8390" };
const GAS = { repo: "datasets/natural-gas", commit: "f7771269b6241e01e6b88408da03723029e2e82d" };
const MACRO_MONITOR = { repo: "sivamsapingali/Codex_Macro-Monitor", commit: "7fb97556145cd3604b1caab9002193df4f3eee07" };

const SERIES: { file: string; name: string; eia_series: string; fred_id: string; units: string; frequency: string; source: Source }[] = [
  {
    file: "wti-daily.csv",
    name: "Cushing, OK WTI Spot Price FOB",
    eia_series: "RWTC",
    fred_id: "DCOILWTICO",
    units: "USD per barrel",
    frequency: "daily (trading days)",
    source: { ...OIL, path: "data/wti-daily.csv" },
  },
  {
    file: "brent-daily.csv",
    name: "Europe Brent Spot Price FOB",
    eia_series: "RBRTE",
    fred_id: "DCOILBRENTEU",
    units: "USD per barrel",
    frequency: "daily (trading days)",
    source: { ...OIL, path: "data/brent-daily.csv" },
  },
  {
    file: "henry-hub-daily.csv",
    name: "Henry Hub Natural Gas Spot Price",
    eia_series: "RNGWHHD",
    fred_id: "DHHNGSP",
    units: "USD per million Btu",
    frequency: "daily (trading days)",
    source: { ...GAS, path: "data/daily.csv" },
  },
  {
    file: "gasoline-regular-weekly.csv",
    name: "US Regular All Formulations Gas Price (retail, weekly)",
    eia_series: "EMM_EPMR_PTE_NUS_DPG",
    fred_id: "GASREGW",
    units: "USD per gallon",
    frequency: "weekly (Monday)",
    source: { ...MACRO_MONITOR, path: "data/GASREGW.csv" },
  },
];

function main() {
  const mirror = mirrorDir();
  const catalog = SERIES.map((s) => {
    const rows = dateValueRows(readSource(mirror, s.source));
    const n = writeCsv(`data/energy/${s.file}`, ["date", "value"], rows);
    const r = valueRange(rows);
    console.log(`${s.file}\t${r.first}..${r.last}\t${n} rows`);
    return { ...s, first: r.first, last: r.last, rows: n };
  });
  writeJson("data/energy/catalog.json", catalog);
}

main();
