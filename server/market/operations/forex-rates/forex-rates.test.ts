// The forex operation offline: its answers against the committed H.10 and G.5 files (values, dates, counts), the
// direction of every rate, the reciprocals and cross rates it computes (labelled, exact, never on a date a leg lacks),
// the refusals an agent gets for what is not held, and the coverage that discovery and the README state.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { forexRatesResponse, type Currency } from "./contract";
import { embeddedForex } from "./forex-source";
import { combine, getForexRates } from "./get-forex-rates";
import { forexRates } from "./index";
import { refusalOf as refusal } from "../../test/refusals";

const read = (rel: string) => fs.readFileSync(path.join(process.cwd(), rel), "utf8");
/** A committed daily file parsed here, independently of the source: [date, value string] ("" = no rate). */
const daily = (id: string) =>
  read(`data/forex/daily/${id}.csv`)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(",") as [string, string]);
const monthly = (c: string) =>
  read("data/forex/monthly.csv")
    .trim()
    .split("\n")
    .map((l) => l.split(","))
    .filter((r) => r[1] === c)
    .map(([d, , v]) => [d!, v!] as [string, string]);
const NOW = new Date("2026-11-27T12:00:00Z");
type Q = { base: Currency; quote: Currency; frequency?: "daily" | "monthly"; start?: string; end?: string; limit?: number };
const ask = (q: Q) => getForexRates({ limit: 1000, ...q }, embeddedForex, NOW);
describe("rates as the Fed publishes them", () => {
  it("EUR/USD daily is DEXUSEU (USD per EUR) row for row; dates without a noon rate are listed, not filled", async () => {
    const res = await ask({ base: "EUR", quote: "USD", start: "2024-11-01", end: "2025-01-31" });
    expect(forexRatesResponse.parse(res)).toBeTruthy();
    const rows = daily("DEXUSEU").filter(([d]) => d >= "2024-11-01" && d <= "2025-01-31");
    expect(res.rates).toEqual(rows.filter(([, v]) => v).map(([date, v]) => ({ date, rate: Number(v) })));
    expect(res.missing_dates.dates).toEqual(rows.filter(([, v]) => !v).map(([d]) => d));
    expect(res.missing_dates.dates).toEqual(expect.arrayContaining(["2024-12-25", "2025-01-01"]));
    expect(res).toMatchObject({
      frequency: "daily",
      computed: false,
      method: null,
      quote_convention: "EUR/USD: units of USD per 1 EUR",
      count: rows.filter(([, v]) => v).length,
    });
    expect(res.legs).toEqual([{ currency: "EUR", series: "DEXUSEU", published_quote: "USD per EUR", note: null }]);
  });

  it("USD/JPY daily is DEXJPUS (JPY per USD) as published; USD/EUR is its reciprocal, labelled computed", async () => {
    const jpy = await ask({ base: "USD", quote: "JPY", start: "2025-09-15", end: "2025-09-26" });
    expect(jpy.computed).toBe(false);
    expect(jpy.rates).toEqual(
      daily("DEXJPUS")
        .filter(([d]) => d >= "2025-09-15")
        .map(([date, v]) => ({ date, rate: Number(v) })),
    );
    const eur = await ask({ base: "USD", quote: "EUR", start: "2025-09-15", end: "2025-09-26" });
    expect(eur.computed).toBe(true);
    expect(eur.method).toBe("EUR per USD = 1 / (USD per EUR, DEXUSEU); products exact, the quotient to 20 significant digits, nothing rounded further.");
    const usdPerEur = daily("DEXUSEU").filter(([d]) => d >= "2025-09-15");
    expect(eur.rates.map((r) => r.date)).toEqual(usdPerEur.map(([d]) => d));
    for (const [i, [, v]] of usdPerEur.entries()) expect(eur.rates[i]!.rate).toBeCloseTo(1 / Number(v), 15);
  });

  it("G.5 monthly: the file's units per USD; the five the source repository inverted are labelled, and so is their reciprocal", async () => {
    const jpy = await ask({ base: "USD", quote: "JPY", frequency: "monthly", start: "2024-01-01", end: "2024-12-31" });
    expect(jpy).toMatchObject({ frequency: "monthly", computed: false, count: 12 });
    expect(jpy.rates).toEqual(
      monthly("JPY")
        .filter(([d]) => d.startsWith("2024"))
        .map(([date, v]) => ({ date, rate: Number(v) })),
    );
    const eurPerUsd = await ask({ base: "USD", quote: "EUR", frequency: "monthly", start: "2024-10-01", end: "2024-10-01" });
    expect(eurPerUsd.rates).toEqual([{ date: "2024-10-01", rate: 0.9179 }]);
    expect(eurPerUsd.computed).toBe(true);
    expect(eurPerUsd.legs[0]).toMatchObject({ series: "EXUSEU", published_quote: "USD per EUR" });
    expect(eurPerUsd.notes.join(" ")).toContain("round(1 / that, 4)");
    const usdPerEur = await ask({ base: "EUR", quote: "USD", frequency: "monthly", start: "2024-10-01", end: "2024-10-01" });
    expect(usdPerEur.rates[0]!.rate).toBeCloseTo(1 / 0.9179, 14);
    expect(usdPerEur.method).toContain("1 / (EUR per USD, round(1 / EXUSEU, 4)");
  });
});

describe("cross rates", () => {
  it("EUR/JPY = USD per EUR x JPY per USD on the same date, exactly (no binary noise), labelled with its method", async () => {
    const res = await ask({ base: "EUR", quote: "JPY", start: "2025-09-15", end: "2025-09-26" });
    expect(res.rates[0]).toEqual({ date: "2025-09-15", rate: 173.366244 }); // 1.1772 x 147.27
    expect(res.computed).toBe(true);
    expect(res.method).toBe(
      "JPY per EUR = (USD per EUR, DEXUSEU) × (JPY per USD, DEXJPUS), both legs of the same date; products exact, the quotient to 20 significant digits, nothing rounded further.",
    );
    const e = new Map(daily("DEXUSEU"));
    for (const r of res.rates) expect(r.rate).toBeCloseTo(Number(e.get(r.date)) * Number(new Map(daily("DEXJPUS")).get(r.date)), 9);
  });

  it("GBP/EUR (two USD-per-unit legs) is USD per GBP / USD per EUR, and stops where the GBP file ends", async () => {
    const res = await ask({ base: "GBP", quote: "EUR", start: "2019-01-21", end: "2019-02-08" });
    expect(res.rates.at(-1)!.date).toBe("2019-01-25");
    expect(res.notes).toContain("Rates after 2019-01-25 are not held (GBP daily 2009-01-26..2019-01-25; EUR daily 2000-01-03..2025-09-26).");
    const [gbp, eur] = [new Map(daily("DEXUSUK")), new Map(daily("DEXUSEU"))];
    for (const r of res.rates) expect(r.rate).toBeCloseTo(Number(gbp.get(r.date)) / Number(eur.get(r.date)), 14);
  });

  it("never fills a date one leg lacks: a real JPY row dropped leaves that date out, listed in missing_dates", () => {
    const rows = (id: string) =>
      daily(id)
        .filter(([d]) => d >= "2025-09-15")
        .map(([date, value]) => ({ date, value: value || null }));
    const jpy = rows("DEXJPUS").filter((r) => r.date !== "2025-09-17");
    const res = combine("EUR", "JPY", [
      { currency: "EUR", series: "DEXUSEU", direction: "USD_per_unit", invertedBySource: false, rows: rows("DEXUSEU") },
      { currency: "JPY", series: "DEXJPUS", direction: "units_per_USD", invertedBySource: false, rows: jpy },
    ]);
    expect(res.rates.map((r) => r.date)).not.toContain("2025-09-17");
    expect(res.missing).toEqual(["2025-09-17"]);
    expect(res.rates).toHaveLength(9);
  });

  it("a cross rate with a currency that has no daily file is monthly, and says so", async () => {
    const res = await ask({ base: "EUR", quote: "CHF", start: "2025-01-01", end: "2025-06-30" });
    expect(res.frequency).toBe("monthly");
    const [eur, chf] = [new Map(monthly("EUR")), new Map(monthly("CHF"))];
    for (const r of res.rates) expect(r.rate).toBeCloseTo(Number(chf.get(r.date)) / Number(eur.get(r.date)), 14);
    expect(res.count).toBe(6);
  });
});

describe("frequency, window and refusals", () => {
  it("picks daily when both legs have daily rates for the window, else monthly", async () => {
    expect((await ask({ base: "GBP", quote: "USD", start: "2015-01-01", end: "2015-01-31" })).frequency).toBe("daily");
    expect((await ask({ base: "GBP", quote: "USD", start: "2022-01-01", end: "2022-03-31" })).frequency).toBe("monthly");
    expect((await ask({ base: "USD", quote: "AUD" })).frequency).toBe("monthly");
  });

  it("defaults to the last 30 days both legs hold", async () => {
    const res = await ask({ base: "EUR", quote: "USD" });
    expect([res.start, res.end]).toEqual(["2025-08-27", "2025-09-26"]);
  });

  it("truncates at limit, oldest first, and says where the next row is", async () => {
    const res = await ask({ base: "EUR", quote: "USD", start: "2025-09-01", end: "2025-09-26", limit: 3 });
    expect(res.rates.map((r) => r.date)).toEqual(["2025-09-02", "2025-09-03", "2025-09-04"]);
    expect(res.truncated).toBe(true);
    expect(res.notes).toContain("Truncated at limit=3: the next row is dated 2025-09-05.");
  });

  it("refuses what is not held (403, never charged) and what cannot be asked (400)", async () => {
    expect(await refusal(ask({ base: "EUR", quote: "EUR" }))).toMatchObject({ status: 400, code: "invalid_request" });
    expect(await refusal(ask({ base: "USD", quote: "AUD", frequency: "daily" }))).toMatchObject({ status: 403, reason: "frequency_not_included" });
    expect(await refusal(ask({ base: "GBP", quote: "USD", frequency: "daily", start: "2022-01-01", end: "2022-01-31" }))).toMatchObject({
      status: 403,
      reason: "timeframe_not_included",
    });
    expect(await refusal(ask({ base: "EUR", quote: "USD", start: "2024-12-25", end: "2024-12-25" }))).toMatchObject({ status: 403, reason: "no_observations" });
    expect(await refusal(ask({ base: "EUR", quote: "USD", start: "2025-02-01", end: "2025-01-01" }))).toMatchObject({ status: 400 });
    expect(await refusal(ask({ base: "DEM", quote: "USD", start: "2010-01-01", end: "2010-12-31" }))).toMatchObject({
      status: 403,
      reason: "timeframe_not_included",
    });
  });
});

describe("coverage", () => {
  const catalog = JSON.parse(read("data/forex/catalog.json")) as {
    currencies: { currency: string; daily_first: string | null; daily_last: string | null; fred_daily_id: string | null }[];
  };
  const held = catalog.currencies.filter((c) => c.daily_first);
  it("states each daily file's first and last date with a rate, as the files hold them", () => {
    const summary = forexRates.coverage("embedded", { feeds: [] }).summary;
    for (const c of held) {
      const withRate = daily(c.fred_daily_id!).filter(([, v]) => v);
      expect([c.daily_first, c.daily_last]).toEqual([withRate[0]![0], withRate.at(-1)![0]]);
      expect(summary).toContain(`${c.currency} ${c.daily_first}..${c.daily_last}`);
    }
    expect(summary).toContain(`monthly G.5 averages ${monthly("EUR")[0]![0].slice(0, 7)}..${monthly("EUR").at(-1)![0].slice(0, 7)}`);
  });
  it("the README states the same", () => {
    const readme = read("server/market/operations/forex-rates/README.md");
    for (const c of held) expect(readme).toContain(`| ${c.currency} | \`${c.fred_daily_id}\` |`);
    for (const c of held) expect(readme).toContain(`| ${c.daily_first}..${c.daily_last} |`);
  });
});
