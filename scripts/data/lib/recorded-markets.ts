// Recorded replies of the market-data sources (EIA v2, Fed H.10 Data Download Program, CBOE VIX history, SEC EDGAR,
// Coinbase Advanced Trade, Massive options), filled only with values of the shipped files. Where each shape and each
// descriptor string comes from is written in data/recorded/README.md; nothing here is a guess at a field.
import { readFileSync } from "node:fs";
import path from "node:path";
import { readSource, repoRoot, type Source } from "./source";

type Io = {
  csv: (rel: string) => string[][];
  writeJson: (rel: string, value: unknown) => void;
  writeText: (rel: string, text: string) => void;
};

const lastRows = (rows: string[][], n: number) => rows.filter((r) => r[1] !== "").slice(-n);

// Descriptor columns as EIA's API v2 returns them for each series (quoted from real replies, see the README).
const EIA_SERIES = {
  RWTC: {
    route: "petroleum/pri/spt",
    file: "data/energy/wti-daily.csv",
    frequency: "daily",
    row: { duoarea: "YCUOK", "area-name": "NA", product: "EPCWTI", "product-name": "WTI Crude Oil", process: "PF4", "process-name": "Spot Price FOB" },
    description: "Cushing, OK WTI Spot Price FOB (Dollars per Barrel)",
    units: "$/BBL",
  },
  RBRTE: {
    route: "petroleum/pri/spt",
    file: "data/energy/brent-daily.csv",
    frequency: "daily",
    row: { duoarea: "ZEU", "area-name": "NA", product: "EPCBRENT", "product-name": "UK Brent Crude Oil", process: "PF4", "process-name": "Spot Price FOB" },
    description: "Europe Brent Spot Price FOB (Dollars per Barrel)",
    units: "$/BBL",
  },
  RNGWHHD: {
    route: "natural-gas/pri/fut",
    file: "data/energy/henry-hub-daily.csv",
    frequency: "daily",
    row: { duoarea: "RGC", "area-name": "NA", product: "EPG0", "product-name": "Natural Gas", process: "PS0", "process-name": "Spot Price" },
    description: "Henry Hub Natural Gas Spot Price (Dollars per Million Btu)",
    units: "$/MMBTU",
  },
  EMM_EPMR_PTE_NUS_DPG: {
    route: "petroleum/pri/gnd",
    file: "data/energy/gasoline-regular-weekly.csv",
    frequency: "weekly",
    row: { duoarea: "NUS", "area-name": "U.S.", product: "EPMR", "product-name": "Regular Gasoline", process: "PTE", "process-name": "Retail Sales" },
    description: "U.S. Regular All Formulations Retail Gasoline Prices",
    units: "$/GAL",
  },
} as const;

function eia(io: Io) {
  for (const [series, s] of Object.entries(EIA_SERIES)) {
    // Newest first, as a request with sort[0][column]=period&sort[0][direction]=desc and a start/end window answers.
    const rows = lastRows(io.csv(s.file), 5).reverse();
    const data = rows.map(([period, value]) => ({ period, ...s.row, series, "series-description": s.description, value, units: s.units }));
    io.writeJson(`data/recorded/eia/${s.route.replaceAll("/", "-")}-data-${series}.json`, {
      response: { total: String(data.length), dateFormat: "YYYY-MM-DD", frequency: s.frequency, data },
      request: { command: `/v2/${s.route}/data/` },
      apiVersion: "2.1.13",
    });
  }
  io.writeJson("data/recorded/eia/error-api-key-missing.json", {
    error: { code: "API_KEY_MISSING", message: "No api_key was supplied.  Please register for one at https://www.eia.gov/opendata/register.php" },
  });
}

/** The Board's Data Download Program CSV: five header rows, then `Time Period,<id>...`; `ND` where no rate. */
function fedH10(io: Io) {
  const cols = [
    { file: "data/forex/daily/DEXUSEU.csv", desc: "SPOT EXCHANGE RATE - EURO AREA ", unit: "Currency:_Per_EUR", cur: "USD", id: "RXI$US_N.B.EU" },
    { file: "data/forex/daily/DEXJPUS.csv", desc: "JAPAN -- SPOT EXCHANGE RATE, YEN/US$ ", unit: "Currency:_Per_USD", cur: "JPY", id: "RXI_N.B.JA" },
  ];
  const series = cols.map((c) => new Map(io.csv(c.file).flatMap(([d, v]) => (d! >= "2025-09-15" ? [[d!, v!] as const] : []))));
  const dates = [...series[0]!.keys()];
  const q = (v: string) => `"${v}"`;
  const lines = [
    [q("Series Description"), ...cols.map((c) => q(c.desc))],
    [q("Unit:"), ...cols.map((c) => q(c.unit))],
    [q("Multiplier:"), ...cols.map(() => q("1"))],
    [q("Currency:"), ...cols.map((c) => q(c.cur))],
    [q("Unique Identifier: "), ...cols.map((c) => q(`H10/H10/${c.id}`))],
    [q("Time Period"), ...cols.map((c) => q(c.id))],
    // The Board prints four decimals; the shipped FRED copies dropped trailing zeros (147.5 is 147.5000).
    ...dates.map((d) => [d, ...series.map((m) => (m.get(d) ? Number(m.get(d)).toFixed(4) : "ND"))]),
  ];
  io.writeText("data/recorded/fed-h10/FRB_H10-EUR-JPY-daily.csv", lines.map((l) => l.join(",")).join("\n") + "\n");
}

/** CBOE's VIX_History.csv: DATE,OPEN,HIGH,LOW,CLOSE with MM/DD/YYYY dates and six decimals. */
function cboeVix(io: Io) {
  const rows = io.csv("data/sentiment/vix-daily.csv").slice(-10);
  const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  io.writeText("data/recorded/cboe/VIX_History.csv", ["DATE,OPEN,HIGH,LOW,CLOSE", ...rows.map(([d, ...v]) => [us(d!), ...v].join(","))].join("\n") + "\n");
}

// Keys of EDGAR's company_tickers.json are its row numbers; these are the rows of a real copy (see the README).
const EDGAR_ROW: Record<string, string> = { "0000320193": "1", "0000789019": "3", "0000104169": "12", "0000909832": "25", "0000354950": "39", "0000320187": "296" };

function secEdgar(io: Io) {
  const entries = Object.entries(EDGAR_ROW).map(([cik, row]) => {
    const s = JSON.parse(readFileSync(path.join(repoRoot, `data/filings/submissions/CIK${cik}.json`), "utf8")) as { cik: string; name: string; tickers: string[] };
    return [row, { cik_str: Number(s.cik), ticker: s.tickers[0], title: s.name }] as const;
  });
  io.writeJson("data/recorded/sec-edgar/company_tickers.json", Object.fromEntries(entries));
  io.writeText(
    "data/recorded/sec-edgar/error-undeclared-automated-tool.txt",
    "Your Request Originates from an Undeclared Automated Tool\n\nTo allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools. Your request has been identified as part of a network of automated tools outside of the acceptable policy and will be managed until action is taken to declare your traffic.\n",
  );
}

/** Coinbase Advanced Trade public candles: newest first, strings, `start` in epoch seconds. */
function coinbase(io: Io) {
  const rows = io.csv("data/crypto/daily/BTC-USD.csv").filter((r) => r[0]! >= "2023-10-07" && r[0]! <= "2023-10-11");
  const candles = rows.reverse().map(([d, open, high, low, close, volume]) => ({ start: String(Date.parse(`${d}T00:00:00Z`) / 1000), low, high, open, close, volume }));
  io.writeJson("data/recorded/coinbase/market-products-BTC-USD-candles-ONE_DAY.json", { candles });
  io.writeJson("data/recorded/coinbase/error-product-not-found.json", { error: "NOT_FOUND", error_details: "valid product_id is required", message: "valid product_id is required" });
}

const MASSIVE_OPTIONS: Source = { repo: "polygon-io/client-python", commit: "5d9c756be2cb767935c2887d69fc1e2779d98b27", path: "test_rest/mocks/v3/snapshot/options/AAPL.json" };

function massiveOptions(io: Io) {
  const i = process.argv.indexOf("--mirror");
  if (i >= 0) io.writeText("data/recorded/massive/v3-snapshot-options-AAPL.json", readSource(process.argv[i + 1]!, MASSIVE_OPTIONS));
  else console.log("massive options example left as committed (no --mirror given)");
  io.writeJson("data/recorded/massive/error-not-entitled.json", {
    status: "NOT_AUTHORIZED",
    request_id: "a32cba9885e469366c897fb0656b1ee1",
    message: "You are not entitled to this data. Please upgrade your plan at https://massive.com/pricing",
  });
}

export function recordedMarkets(io: Io) {
  eia(io);
  fedH10(io);
  cboeVix(io);
  secEdgar(io);
  coinbase(io);
  massiveOptions(io);
}
