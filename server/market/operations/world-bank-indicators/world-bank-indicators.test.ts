// The World Bank operation offline: its answers against the committed files (values, years, counts), the codes it
// reads (alpha-3, alpha-2, aggregates), the refusals an agent gets for what is not held, and the coverage that
// discovery and the README state.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORLD_BANK_INDICATORS, worldBankIndicatorsResponse } from "./contract";
import { getWorldBankIndicator } from "./get-world-bank-indicator";
import { worldBankIndicators } from "./index";
import { embeddedWorldBank } from "./world-bank-source";
import { refusalOf as refusal } from "../../test/refusals";

const read = (rel: string) => fs.readFileSync(path.join(process.cwd(), rel), "utf8");
/** A committed indicator file, parsed here independently of the source: [code, year, value string]. */
const fileRows = (id: string) =>
  read(`data/world-bank/${id}.csv`)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
const NOW = new Date("2026-11-27T12:00:00Z");
const ask = (indicator: string, q: { countries: string; start_year?: number; end_year?: number }) =>
  getWorldBankIndicator(indicator, q, embeddedWorldBank, NOW);
describe("fidelity to the committed files", () => {
  it.each(WORLD_BANK_INDICATORS.map((i) => [i.id] as const))("%s: every USA, DEU, JPN and WLD row, value for value", async (id) => {
    const want = fileRows(id).filter(([code]) => ["USA", "DEU", "JPN", "WLD"].includes(code!));
    const res = await ask(id, { countries: "USA,DEU,JPN,WLD", start_year: 1960, end_year: 2100 });
    expect(worldBankIndicatorsResponse.parse(res)).toBeTruthy();
    // The answer lists countries in the order asked, the file sorts by code: compare as sets of rows, then counts.
    const got = res.observations.map((o) => [o.country_code, String(o.year), o.value]);
    expect(got).toHaveLength(want.length);
    expect(res.count).toBe(want.length);
    for (const [code, year, value] of want) expect(got).toContainEqual([code, year, Number(value)]);
    expect(res.countries.map((c) => c.observations)).toEqual(["USA", "DEU", "JPN", "WLD"].map((c) => want.filter((w) => w[0] === c).length));
  });

  it("keeps the file's digits: a value read back prints as the file wrote it", async () => {
    const res = await ask("gdp", { countries: "DEU", start_year: 2023, end_year: 2023 });
    const [, , value] = fileRows("NY.GDP.MKTP.CD").find(([c, y]) => c === "DEU" && y === "2023")!;
    expect(String(res.observations[0]!.value)).toBe(value);
  });

  it("orders rows by the countries asked, then year; aliases and ids give the same answer", async () => {
    const a = await ask("population", { countries: "WLD,USA", start_year: 2020, end_year: 2022 });
    expect(a.observations.map((o) => `${o.country_code} ${o.year}`)).toEqual(["WLD 2020", "WLD 2021", "WLD 2022", "USA 2020", "USA 2021", "USA 2022"]);
    const b = await ask("SP.POP.TOTL", { countries: "WLD,USA", start_year: 2020, end_year: 2022 });
    expect(b).toEqual(a);
    expect(a.indicator).toEqual({ id: "SP.POP.TOTL", alias: "population", name: "Population, total", units: "persons (midyear estimate)" });
  });
});

describe("codes and years", () => {
  it("reads alpha-2 codes and lower case as alpha-3, says so, and lists a repeated country once", async () => {
    const res = await ask("gdp_growth", { countries: "us,de,USA", start_year: 2022, end_year: 2024 });
    expect(res.countries.map((c) => [c.requested, c.code, c.observations])).toEqual([
      ["US", "USA", 3],
      ["DE", "DEU", 3],
      ["USA", "USA", 0],
    ]);
    expect(res.count).toBe(6);
    expect(res.notes).toEqual(expect.arrayContaining(["US is read as USA.", "DE is read as DEU.", "USA names USA again: its rows are listed once."]));
  });

  it("marks aggregates as aggregates", async () => {
    const res = await ask("inflation", { countries: "WLD,EUU,FRA", start_year: 2024, end_year: 2024 });
    expect(res.countries.map((c) => [c.code, c.aggregate])).toEqual([
      ["WLD", true],
      ["EUU", true],
      ["FRA", false],
    ]);
    expect(res.notes).toContain("WLD (World) is a World Bank aggregate, not an economy.");
  });

  it("defaults to the last ten years held, and GDP in current US$ ends at 2023 while the others reach 2024", async () => {
    const gdp = await ask("gdp", { countries: "USA" });
    expect([gdp.start_year, gdp.end_year, gdp.count]).toEqual([2014, 2023, 10]);
    const pop = await ask("population", { countries: "USA" });
    expect([pop.start_year, pop.end_year]).toEqual([2015, 2024]);
    const asked = await ask("gdp", { countries: "USA", start_year: 2022, end_year: 2024 });
    expect(asked.observations.map((o) => o.year)).toEqual([2022, 2023]);
    expect(asked.notes).toContain("NY.GDP.MKTP.CD is held to 2023: no value after it is in this answer.");
  });

  it("says which years a country has no value for instead of filling them", async () => {
    const res = await ask("inflation", { countries: "ARG", start_year: 2014, end_year: 2019 });
    const years = fileRows("FP.CPI.TOTL.ZG")
      .filter(([c, y]) => c === "ARG" && Number(y) >= 2014 && Number(y) <= 2019)
      .map(([, y]) => Number(y));
    expect(res.observations.map((o) => o.year)).toEqual(years);
    expect(years.length).toBeLessThan(6);
    expect(res.notes.find((n) => n.startsWith("ARG: no value for"))).toBeDefined();
  });

  it("refuses what is not held, each with the answer a vendor gives (never a 5xx, never a made-up row)", async () => {
    expect(await refusal(ask("gdp", { countries: "USA,XXX" }))).toMatchObject({ status: 404, code: "not_found", reason: "unknown_country" });
    expect(await refusal(ask("gdp", { countries: "USA", start_year: 1960, end_year: 1989 }))).toMatchObject({ status: 403, reason: "timeframe_not_included" });
    expect(await refusal(ask("gdp", { countries: "USA", start_year: 2024, end_year: 2030 }))).toMatchObject({ status: 403, reason: "timeframe_not_included" });
    expect(await refusal(ask("gdp", { countries: "USA", start_year: 2020, end_year: 2010 }))).toMatchObject({ status: 400, code: "invalid_request" });
    // An economy the CPI file has no row for at all.
    const noCpi = [...new Set(fileRows("SP.POP.TOTL").map(([c]) => c))].find((c) => !fileRows("FP.CPI.TOTL.ZG").some(([d]) => d === c))!;
    expect(await refusal(ask("inflation", { countries: noCpi }))).toMatchObject({ status: 403, reason: "no_observations" });
  });
});

describe("coverage", () => {
  const cov = worldBankIndicators.coverage("embedded", { feeds: [] });
  it("states each file's years and code count, as the files hold them", () => {
    for (const i of WORLD_BANK_INDICATORS) {
      const rows = fileRows(i.id);
      const years = rows.map(([, y]) => Number(y));
      const codes = new Set(rows.map(([c]) => c)).size;
      expect(cov.summary).toContain(`${i.id} (${i.alias}) ${Math.min(...years)}..${Math.max(...years)}, ${codes} codes`);
    }
    const aggregates = read("data/world-bank/countries.csv")
      .split("\n")
      .filter((l) => l.endsWith(",true")).length;
    expect(cov.summary).toContain(`${aggregates} aggregates`);
  });
  it("the README states the same years and the ISO alpha-2 mapping", () => {
    const readme = read("server/market/operations/world-bank-indicators/README.md");
    for (const i of WORLD_BANK_INDICATORS) {
      const years = fileRows(i.id).map(([, y]) => Number(y));
      expect(readme).toContain(`| \`${i.id}\` | \`${i.alias}\` |`);
      expect(readme).toContain(`| ${Math.min(...years)}..${Math.max(...years)} |`);
    }
    expect(readme).toContain(`${read("data/world-bank/iso2.csv").trim().split("\n").length - 1} economies`);
  });
});
