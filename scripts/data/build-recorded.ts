// Builds data/recorded/<source>/: replies shaped as each public API documents them, filled only with values from the
// shipped files (see data/recorded/README.md). Reads data/ only, except the Massive options example, which is copied from
// a fetched snapshot when --mirror is given. Usage: npx tsx scripts/data/build-recorded.ts [--mirror <folder>]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { recordedMarkets } from "./lib/recorded-markets";
import { parseCsv, repoRoot, writeJson } from "./lib/source";

const csv = (rel: string) => parseCsv(readFileSync(path.join(repoRoot, rel), "utf8")).slice(1).filter((r) => r.length > 1);

function writeText(relPath: string, text: string): void {
  const file = path.join(repoRoot, relPath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function fred() {
  const rows = csv("data/economy/vintages/UNRATE.csv");
  const obs = (vintage: string, from: string) =>
    rows
      .filter((r) => r[0] === vintage && r[1]! >= from)
      .map(([, date, value]) => ({ realtime_start: vintage, realtime_end: vintage, date: date!, value: value === "" ? "." : value! }));
  const reply = (vintage: string, from: string) => {
    const o = obs(vintage, from);
    return {
      realtime_start: vintage,
      realtime_end: vintage,
      observation_start: from,
      observation_end: "9999-12-31",
      units: "lin",
      output_type: 1,
      file_type: "json",
      order_by: "observation_date",
      sort_order: "asc",
      count: o.length,
      offset: 0,
      limit: 100000,
      observations: o,
    };
  };
  writeJson("data/recorded/fred/series-observations-UNRATE-20260330.json", reply("2026-03-30", "2025-06-01"));
  writeJson("data/recorded/fred/series-observations-UNRATE-realtime-20260102.json", reply("2026-01-02", "2025-06-01"));
  alfredWindow();
  fredSeriesMeta();
  writeJson("data/recorded/fred/error-series-does-not-exist.json", { error_code: 400, error_message: "Bad Request.  The series does not exist." });
  writeJson("data/recorded/fred/error-api-key-not-registered.json", {
    error_code: 400,
    error_message: "Bad Request.  The value for variable api_key is not registered.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.",
  });
}

// ALFRED real-time replies for PAYEMS from the 2019-2020 window of vintages (economy/vintages/alfred-2019-2020.csv).
function alfredWindow() {
  const rows = csv("data/economy/vintages/alfred-2019-2020.csv").filter((r) => r[0] === "PAYEMS");
  const vintages = [...new Set(rows.map((r) => r[1]!))].sort();
  writeJson("data/recorded/fred/series-vintagedates-PAYEMS-2019-2020.json", {
    realtime_start: "2019-07-01",
    realtime_end: "2020-11-06",
    order_by: "vintage_date",
    sort_order: "asc",
    count: vintages.length,
    offset: 0,
    limit: 10000,
    vintage_dates: vintages,
  });
  // As FRED answers realtime_start=realtime_end=2020-05-11: the values in effect that day (the vintage of 2020-05-11).
  const asOf = "2020-05-11";
  const observations = rows
    .filter((r) => r[1] === asOf)
    .map(([, , date, value]) => ({ realtime_start: asOf, realtime_end: asOf, date: date!, value: value!.replace(/\.0$/, "") }));
  writeJson("data/recorded/fred/series-observations-PAYEMS-realtime-20200511.json", {
    realtime_start: asOf,
    realtime_end: asOf,
    observation_start: "2019-06-01",
    observation_end: "9999-12-31",
    units: "lin",
    output_type: 1,
    file_type: "json",
    order_by: "observation_date",
    sort_order: "asc",
    count: observations.length,
    offset: 0,
    limit: 100000,
    observations,
  });
}

// FRED's `series` reply (metadata) for UNRATE and PAYEMS as of their retrieval day, from economy/catalog.json (FRED's
// series-page metadata). The keys FRED documents that no shipped file holds (the *_short forms, last_updated,
// popularity, notes) are left out rather than guessed.
function fredSeriesMeta() {
  const catalog = JSON.parse(readFileSync(path.join(repoRoot, "data/economy/catalog.json"), "utf8")) as Record<string, string>[];
  for (const id of ["UNRATE", "PAYEMS"]) {
    const c = catalog.find((x) => x.id === id)!;
    const day = c.retrieved!;
    writeJson(`data/recorded/fred/series-${id}.json`, {
      realtime_start: day,
      realtime_end: day,
      seriess: [
        {
          id,
          realtime_start: day,
          realtime_end: day,
          title: c.title,
          observation_start: c.observation_start,
          observation_end: c.observation_end,
          frequency: c.frequency,
          units: c.units,
          seasonal_adjustment: c.seasonal_adjustment,
        },
      ],
    });
  }
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function bls() {
  // BLS's own ids for the two FRED series: LNS14000000 = UNRATE, CES0000000001 = PAYEMS. Newest first, as BLS answers.
  const series = (id: string, file: string) => {
    const rows = csv(file).filter((r) => r[0]! >= "2025-01-01" && r[1] !== "");
    const data = rows.reverse().map(([date, value], i) => {
      const m = Number(date!.slice(5, 7));
      return {
        year: date!.slice(0, 4),
        period: `M${String(m).padStart(2, "0")}`,
        periodName: MONTHS[m - 1],
        ...(i === 0 ? { latest: "true" } : {}),
        value: value!,
        footnotes: [{}],
      };
    });
    return { seriesID: id, data };
  };
  writeJson("data/recorded/bls/timeseries-data-LNS14000000-CES0000000001.json", {
    status: "REQUEST_SUCCEEDED",
    responseTime: 0,
    message: [],
    Results: { series: [series("LNS14000000", "data/economy/series/UNRATE.csv"), series("CES0000000001", "data/economy/series/PAYEMS.csv")] },
  });
  writeJson("data/recorded/bls/error-daily-threshold.json", {
    status: "REQUEST_NOT_PROCESSED",
    responseTime: 0,
    message: [
      "Request could not be serviced, as the daily threshold for total number of requests allocated to the user with registration key  has been reached.",
    ],
    Results: {},
  });
}

function worldBank() {
  const rows = csv("data/world-bank/SP.POP.TOTL.csv").filter((r) => r[0] === "USA" && Number(r[1]) >= 2015);
  const data = rows.reverse().map(([, year, value]) => ({
    indicator: { id: "SP.POP.TOTL", value: "Population, total" },
    country: { id: "US", value: "United States" },
    countryiso3code: "USA",
    date: year!,
    value: Number(value),
    unit: "",
    obs_status: "",
    decimal: 0,
  }));
  writeJson("data/recorded/world-bank/country-USA-indicator-SP.POP.TOTL.json", [
    { page: 1, pages: 1, per_page: 50, total: data.length, sourceid: "2", lastupdated: null },
    data,
  ]);
  writeJson("data/recorded/world-bank/error-invalid-value.json", [{ message: [{ id: "120", key: "Invalid value", value: "The provided parameter value is not valid" }] }]);
}

fred();
bls();
worldBank();
recordedMarkets({ csv, writeJson, writeText });
console.log("recorded replies written");
