// Builds data/world-bank/: one country_code,year,value CSV per World Bank indicator (1990 on) and countries.csv
// (see data/world-bank/SOURCES.md). Usage: npx tsx scripts/data/build-world-bank.ts --mirror <folder of fetched snapshots>
import { mirrorDir, parseCsv, readSource, writeCsv, writeJson, type Source } from "./lib/source";

const FROM_YEAR = 1990;

const GDP_REPO = { repo: "datasets/gdp", commit: "822019c80142c162e4ca4eb1a63699ae36075078" };
const POP_REPO = { repo: "datasets/population", commit: "425fc447a53a26c767a15a7de60c4cc2478a0595" };
const WDI_REPO = { repo: "wasaldev/24077342-Data-Science-Machine-Learning-GDP-Growth-Prediction", commit: "c8beeeb35b829958ec7d0874377f6c0562ddf1f5" };
const ISO_SOURCE: Source = { repo: "datasets/country-codes", commit: "caa72d1e0e5af8876c170bb36a9e4d64a01bba88", path: "data/country-codes.csv" };

// World Bank economies whose codes are not ISO 3166-1 alpha-3 codes; every other non-ISO code in WDI is an aggregate
// (region, income group, lending group, "World"), as the World Bank's country metadata files classify them.
const NON_ISO_ECONOMIES = new Set(["CHI", "XKX"]);

type Indicator = { code: string; name: string; units: string; source: Source; shape: "long" | "wdi-wide" };

const INDICATORS: Indicator[] = [
  { code: "NY.GDP.MKTP.CD", name: "GDP (current US$)", units: "current US dollars", source: { ...GDP_REPO, path: "data/gdp.csv" }, shape: "long" },
  {
    code: "NY.GDP.MKTP.KD.ZG",
    name: "GDP growth (annual %)",
    units: "percent",
    source: { ...WDI_REPO, path: "dataset/API_NY.GDP.MKTP.KD.ZG_DS2_en_csv_v2_26.csv" },
    shape: "wdi-wide",
  },
  {
    code: "FP.CPI.TOTL.ZG",
    name: "Inflation, consumer prices (annual %)",
    units: "percent",
    source: { ...WDI_REPO, path: "dataset/API_FP.CPI.TOTL.ZG_DS2_en_csv_v2_32.csv" },
    shape: "wdi-wide",
  },
  { code: "SP.POP.TOTL", name: "Population, total", units: "persons", source: { ...POP_REPO, path: "data/population.csv" }, shape: "long" },
];

type Row = { code: string; name: string; year: number; value: string };

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** datahub's long files: Country Name,Country Code,Year,Value (only years holding a value). */
function readLong(text: string): Row[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.join("|") !== "Country Name|Country Code|Year|Value") throw new Error(`unexpected header ${header}`);
  return rows.filter((r) => r.length === 4).map(([name, code, year, value]) => ({ name: name!, code: code!, year: Number(year), value: value! }));
}

/** The World Bank's own bulk CSV: 4 preamble lines, then Country Name,Country Code,Indicator Name,Indicator Code,1960,... */
function readWdiWide(text: string, code: string): { rows: Row[]; lastUpdated: string } {
  const all = parseCsv(text);
  const updated = all.find((r) => r[0] === "Last Updated Date")?.[1] ?? "";
  const hi = all.findIndex((r) => r[0] === "Country Name");
  const header = all[hi]!;
  const rows: Row[] = [];
  for (const r of all.slice(hi + 1)) {
    if (r.length < 5) continue;
    if (r[3] !== code) throw new Error(`indicator ${r[3]} in the ${code} file`);
    for (let c = 4; c < header.length; c++) {
      const v = (r[c] ?? "").trim();
      if (v === "" || !/^\d{4}$/.test(header[c]!)) continue;
      rows.push({ name: r[0]!, code: r[1]!, year: Number(header[c]), value: v });
    }
  }
  return { rows, lastUpdated: updated };
}

function main() {
  const mirror = mirrorDir();
  const iso = new Set(
    (() => {
      const [h, ...rows] = parseCsv(readSource(mirror, ISO_SOURCE));
      const col = h!.indexOf("ISO3166-1-Alpha-3");
      return rows.map((r) => r[col]).filter((c): c is string => !!c);
    })(),
  );
  const names = new Map<string, string>();
  const meta = INDICATORS.map((ind) => {
    const text = readSource(mirror, ind.source);
    const { rows, lastUpdated } = ind.shape === "long" ? { rows: readLong(text), lastUpdated: "" } : readWdiWide(text, ind.code);
    const kept = rows.filter((r) => r.year >= FROM_YEAR).sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.year - b.year));
    for (const r of kept) {
      if (!NUMBER.test(r.value)) throw new Error(`${ind.code} ${r.code} ${r.year}: not a number ${r.value}`);
      if (!/^[A-Z0-9]{3}$/.test(r.code)) throw new Error(`${ind.code}: odd code ${r.code}`);
      if (!names.has(r.code)) names.set(r.code, r.name);
    }
    const n = writeCsv(
      `data/world-bank/${ind.code}.csv`,
      ["country_code", "year", "value"],
      kept.map((r) => [r.code, r.year, r.value]),
    );
    const years = kept.map((r) => r.year);
    const m = {
      indicator: ind.code,
      name: ind.name,
      units: ind.units,
      file: `${ind.code}.csv`,
      rows: n,
      codes: new Set(kept.map((r) => r.code)).size,
      first_year: Math.min(...years),
      last_year: Math.max(...years),
      wdi_last_updated: lastUpdated || null,
      source: ind.source,
    };
    console.log(`${ind.code}\t${m.first_year}..${m.last_year}\t${n} rows\t${m.codes} codes`);
    return m;
  });
  const countries = [...names.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, name]) => {
    const isIso = iso.has(code);
    return [code, name, isIso ? "true" : "false", isIso || NON_ISO_ECONOMIES.has(code) ? "false" : "true"];
  });
  writeCsv("data/world-bank/countries.csv", ["country_code", "country_name", "iso3166", "aggregate"], countries);
  writeJson("data/world-bank/catalog.json", meta);
  console.log(`countries.csv\t${countries.length} codes, not ISO 3166-1: ${countries.filter((c) => c[2] === "false").map((c) => c[0]).join(" ")}`);
}

main();
