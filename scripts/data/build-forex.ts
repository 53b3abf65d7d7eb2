// Builds data/forex/: Federal Reserve H.10 / G.5 exchange rates against the US dollar, as FRED carries them
// (see data/forex/SOURCES.md). Usage: npx tsx scripts/data/build-forex.ts --mirror <folder of fetched snapshots>
import { dateValueRows, mirrorDir, parseCsv, readSource, valueRange, writeCsv, writeJson, type Source } from "./lib/source";

const MONTHLY: Source = { repo: "datasets/exchange-rates", commit: "fa7d949956d1db1d21102654b1f40d64d2568677", path: "data/monthly.csv" };
const RECENT = { repo: "codejoncode/congenial-fortnight", commit: "ea4e514ec08649695100b3bc8fcd582817dd5884" };
const DECADE = { repo: "qrrble/Forex-RNN", commit: "22acec55068f3f283c99b7393c11345810d48143" };

// Monthly series are kept from the euro's first month on.
const MONTHLY_FROM = "1999-01-01";

type Quote = "USD_per_unit" | "units_per_USD";
type Currency = { country: string; currency: string; monthly: string; daily: string | null; quote: Quote };

// FRED series ids per country as datasets/exchange-rates' own flow names them (exchange_rates_flow.py); ISO 4217 codes;
// the quote direction as H.10 publishes it (US$ per unit for AUD, EUR, IEP, NZD, GBP; units per US$ for the rest).
const CURRENCIES: Currency[] = [
  ["Australia", "AUD", "EXUSAL", "DEXUSAL", "USD_per_unit"],
  ["Austria", "ATS", "EXAUUS", null, "units_per_USD"],
  ["Belgium", "BEF", "EXBEUS", null, "units_per_USD"],
  ["Brazil", "BRL", "EXBZUS", "DEXBZUS", "units_per_USD"],
  ["Canada", "CAD", "EXCAUS", "DEXCAUS", "units_per_USD"],
  ["China", "CNY", "EXCHUS", "DEXCHUS", "units_per_USD"],
  ["Denmark", "DKK", "EXDNUS", "DEXDNUS", "units_per_USD"],
  ["Euro", "EUR", "EXUSEU", "DEXUSEU", "USD_per_unit"],
  ["Finland", "FIM", "EXFNUS", null, "units_per_USD"],
  ["France", "FRF", "EXFRUS", null, "units_per_USD"],
  ["Germany", "DEM", "EXGEUS", null, "units_per_USD"],
  ["Greece", "GRD", "EXGRUS", null, "units_per_USD"],
  ["Hong Kong", "HKD", "EXHKUS", "DEXHKUS", "units_per_USD"],
  ["India", "INR", "EXINUS", "DEXINUS", "units_per_USD"],
  ["Ireland", "IEP", "EXUSIR", null, "USD_per_unit"],
  ["Italy", "ITL", "EXITUS", null, "units_per_USD"],
  ["Japan", "JPY", "EXJPUS", "DEXJPUS", "units_per_USD"],
  ["Malaysia", "MYR", "EXMAUS", "DEXMAUS", "units_per_USD"],
  ["Mexico", "MXN", "EXMXUS", "DEXMXUS", "units_per_USD"],
  ["Netherlands", "NLG", "EXNEUS", null, "units_per_USD"],
  ["New Zealand", "NZD", "EXUSNZ", "DEXUSNZ", "USD_per_unit"],
  ["Norway", "NOK", "EXNOUS", "DEXNOUS", "units_per_USD"],
  ["Portugal", "PTE", "EXPOUS", null, "units_per_USD"],
  ["Singapore", "SGD", "EXSIUS", "DEXSIUS", "units_per_USD"],
  ["South Africa", "ZAR", "EXSFUS", "DEXSFUS", "units_per_USD"],
  ["South Korea", "KRW", "EXKOUS", "DEXKOUS", "units_per_USD"],
  ["Spain", "ESP", "EXSPUS", null, "units_per_USD"],
  ["Sri Lanka", "LKR", "EXSLUS", null, "units_per_USD"],
  ["Sweden", "SEK", "EXSDUS", "DEXSDUS", "units_per_USD"],
  ["Switzerland", "CHF", "EXSZUS", "DEXSZUS", "units_per_USD"],
  ["Taiwan", "TWD", "EXTAUS", "DEXTAUS", "units_per_USD"],
  ["Thailand", "THB", "EXTHUS", "DEXTHUS", "units_per_USD"],
  ["United Kingdom", "GBP", "EXUSUK", "DEXUSUK", "USD_per_unit"],
].map(([country, currency, monthly, daily, quote]) => ({ country, currency, monthly, daily, quote }) as Currency);

// Daily files shipped: FRED's DEX* downloads. EUR, JPY, CNY from the 2025 pull (FRED API; its header renamed to
// lower case by that repository), CAD, KRW, MXN, GBP from FRED's own CSVs of 2019.
const DAILY: { id: string; source: Source }[] = [
  ...["DEXUSEU", "DEXJPUS", "DEXCHUS"].map((id) => ({ id, source: { ...RECENT, path: `data/${id}.csv` } })),
  ...["DEXCAUS", "DEXKOUS", "DEXMXUS", "DEXUSUK"].map((id) => ({ id, source: { ...DECADE, path: `data/${id}.csv` } })),
];

// Left out: the bolivar's series spans several redenominations (VEB, VEF, VES) with no unit marker in the file.
const LEFT_OUT = new Set(["Venezuela"]);

function main() {
  const mirror = mirrorDir();
  const byCountry = new Map(CURRENCIES.map((c) => [c.country, c]));
  const [header, ...rows] = parseCsv(readSource(mirror, MONTHLY));
  if (header?.join("|") !== "Date|Country|Exchange rate") throw new Error(`unexpected header ${header}`);
  const monthly = rows
    .filter((r) => r.length === 3 && r[0]! >= MONTHLY_FROM && r[2] !== "" && !LEFT_OUT.has(r[1]!))
    .map(([date, country, value]) => {
      const c = byCountry.get(country!);
      if (!c) throw new Error(`no currency for ${country}`);
      if (!/^-?\d+(\.\d+)?$/.test(value!)) throw new Error(`not a number ${date} ${country} ${value}`);
      return [date!, c.currency, value!];
    })
    .sort((a, b) => (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : a[0]! < b[0]! ? -1 : 1));
  writeCsv("data/forex/monthly.csv", ["date", "currency", "value"], monthly);

  const dailyMeta = DAILY.map(({ id, source }) => {
    const out = dateValueRows(readSource(mirror, source));
    const n = writeCsv(`data/forex/daily/${id}.csv`, ["date", "value"], out);
    const r = valueRange(out);
    console.log(`daily/${id}.csv\t${r.first}..${r.last}\t${n} rows`);
    return { series: id, file: `daily/${id}.csv`, first: r.first, last: r.last, rows: n, values: r.values, source };
  });
  const catalog = CURRENCIES.map((c) => {
    const m = monthly.filter((r) => r[1] === c.currency);
    const d = dailyMeta.find((x) => x.series === c.daily) ?? null;
    // datasets/exchange-rates (scripts/main.py) writes round(1 / FRED value, 4) for the US$-per-unit series, so every
    // monthly value in the shelf is units of the currency per US dollar.
    return {
      country: c.country,
      currency: c.currency,
      fred_monthly_id: c.monthly,
      fred_quote: c.quote,
      monthly_quote: "units_per_USD",
      monthly_inverted_by_source: c.quote === "USD_per_unit",
      fred_daily_id: c.daily,
      daily_quote: d ? c.quote : null,
      monthly_first: m[0]?.[0] ?? null,
      monthly_last: m[m.length - 1]?.[0] ?? null,
      daily_file: d?.file ?? null,
      daily_first: d?.first ?? null,
      daily_last: d?.last ?? null,
    };
  }).filter((c) => c.monthly_first !== null);
  writeJson("data/forex/catalog.json", { monthly_source: MONTHLY, daily_sources: dailyMeta.map(({ series, source }) => ({ series, source })), currencies: catalog });
  console.log(`monthly.csv\t${monthly.length} rows, ${catalog.length} currencies`);
}

main();
