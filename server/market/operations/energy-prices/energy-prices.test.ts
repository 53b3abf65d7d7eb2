// The energy operation offline: its answers against the committed EIA files (every date and value, negative prices
// included), the frequencies it holds and refuses, and the coverage that discovery and the README state.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMODITIES, energyPricesResponse, type Commodity } from "./contract";
import { embeddedEnergy } from "./energy-source";
import { getEnergyPrices } from "./get-energy-prices";
import { ARCHIVED_COMMODITIES, energyPrices } from "./index";
import { refusalOf as refusal } from "../../test/refusals";

const read = (rel: string) => fs.readFileSync(path.join(process.cwd(), rel), "utf8");
const FILES: Record<string, string> = {
  wti: "wti-daily.csv",
  brent: "brent-daily.csv",
  "henry-hub": "henry-hub-daily.csv",
  gasoline: "gasoline-regular-weekly.csv",
};
/** A committed file parsed here, independently of the source. */
const fileRows = (commodity: string) =>
  read(`data/energy/${FILES[commodity]}`)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(",") as [string, string])
    .filter(([, v]) => v !== "");
const NOW = new Date("2026-11-27T12:00:00Z");
type Q = { start?: string; end?: string; frequency?: "daily" | "weekly" | "monthly" | "annual"; limit?: number };
const ask = (c: Commodity, q: Q = {}) => getEnergyPrices(c, { limit: 1000, ...q }, embeddedEnergy, NOW);
describe("fidelity to the committed files", () => {
  it.each(ARCHIVED_COMMODITIES.map((c) => [c] as const))("%s: the whole history, every date and value", async (c) => {
    const rows = fileRows(c);
    const res = await ask(c, { start: "1980-01-01", end: "2030-12-31", limit: 12_000 });
    expect(energyPricesResponse.parse(res)).toBeTruthy();
    expect(res.count).toBe(rows.length);
    expect(res.truncated).toBe(false);
    expect(res.prices).toEqual(rows.map(([date, v]) => ({ date, value: Number(v) })));
    expect(res.series.id).toBe(COMMODITIES[c].series);
  });

  it("WTI on 2020-04-20 is -36.98 USD per barrel: served, accepted by the contract, and noted", async () => {
    const res = await ask("wti", { start: "2020-04-14", end: "2020-04-24" });
    expect(energyPricesResponse.parse(res).prices).toContainEqual({ date: "2020-04-20", value: -36.98 });
    expect(fileRows("wti")).toContainEqual(["2020-04-20", "-36.98"]);
    expect(res.notes).toContain("This window holds negative prices: they are EIA's published values.");
    expect(res.series).toEqual({ id: "RWTC", name: "WTI crude oil spot price, Cushing, Oklahoma (FOB)", units: "USD per barrel" });
  });

  it("a date the file lists without a price has no row, and the answer names it", async () => {
    const res = await ask("henry-hub", { start: "2018-01-02", end: "2018-01-10" });
    expect(res.prices.map((p) => p.date)).not.toContain("2018-01-05");
    expect(read("data/energy/henry-hub-daily.csv")).toContain("\n2018-01-05,\n");
    expect(res.notes).toContain("EIA lists 2018-01-05 with no price: no row (nothing is filled in).");
  });

  it("natural-gas is Henry Hub's series under another name", async () => {
    const a = await ask("natural-gas", { start: "2026-08-01", end: "2026-08-18" });
    const b = await ask("henry-hub", { start: "2026-08-01", end: "2026-08-18" });
    expect(a.prices).toEqual(b.prices);
    expect(a.series.id).toBe("RNGWHHD");
  });
});

describe("frequencies, windows and refusals", () => {
  it("defaults to the published frequency and the last 30 days (a year of weeks for gasoline) held", async () => {
    const wti = await ask("wti");
    expect([wti.frequency, wti.start, wti.end]).toEqual(["daily", "2026-07-19", "2026-08-18"]);
    const gas = await ask("gasoline");
    expect([gas.frequency, gas.end, gas.prices.at(-1)!.date]).toEqual(["weekly", "2025-12-29", "2025-12-29"]);
  });

  it("truncates at limit, oldest first", async () => {
    const res = await ask("brent", { start: "2026-08-01", end: "2026-08-18", limit: 2 });
    expect(res.prices.map((p) => p.date)).toEqual(
      fileRows("brent")
        .filter(([d]) => d >= "2026-08-01")
        .slice(0, 2)
        .map(([d]) => d),
    );
    expect(res.truncated).toBe(true);
  });

  it("refuses what is not held (403, never charged): no averaging, no daily gasoline, no window outside the files", async () => {
    expect(await refusal(ask("gasoline", { frequency: "daily" }))).toMatchObject({ status: 403, reason: "frequency_not_included" });
    expect(await refusal(ask("wti", { frequency: "monthly" }))).toMatchObject({ status: 403, reason: "frequency_not_included" });
    expect(await refusal(ask("brent", { start: "1980-01-01", end: "1986-12-31" }))).toMatchObject({ status: 403, reason: "timeframe_not_included" });
    expect(await refusal(ask("wti", { start: "2026-08-15", end: "2026-08-16" }))).toMatchObject({ status: 403, reason: "no_observations" });
    expect(await refusal(ask("wti", { start: "2026-08-16", end: "2026-08-15" }))).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("coverage", () => {
  const summary = energyPrices.coverage("embedded", { feeds: [] }).summary;
  it.each(ARCHIVED_COMMODITIES.map((c) => [c] as const))("%s: first and last date and count, as the file holds them", (c) => {
    const rows = fileRows(c);
    const text = `${rows[0]![0]}..${rows.at(-1)![0]} (${rows.length.toLocaleString("en-US")} prices)`;
    expect(summary).toContain(`${c} ${c === "gasoline" ? "weekly" : "daily"} ${text}`);
    expect(read("server/market/operations/energy-prices/README.md")).toContain(`| ${text} |`);
  });
});
