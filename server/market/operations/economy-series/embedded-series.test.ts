// The series operation offline, against the committed files themselves: every held series answered whole equals its
// CSV (dates, values, count); a point-in-time answer equals the vintage file's rows for the vintage in effect, with each
// value's publication date ALFRED's; and what is not held is a 403 naming what is.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../errors";
import { heldSeries } from "../../providers/economy-catalog";
import { embeddedProviders } from "../../providers/embedded";
import { ARCHIVED_SERIES } from ".";
import { economySeriesQuery, economySeriesResponse } from "./contract";
import { getEconomySeries } from "./get-economy-series";

const providers = embeddedProviders();
const csv = (rel: string) =>
  fs
    .readFileSync(path.join(process.cwd(), "data/economy", rel), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
const num = (v: string | undefined) => (v === "" || v === undefined ? null : Number(v));
const ask = (id: string, q: Record<string, string> = {}) => getEconomySeries(id, economySeriesQuery.parse(q), providers);

async function refusal(p: Promise<unknown>): Promise<Record<string, unknown> & { status: number }> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return { status: (e as AppError).status, ...(e as AppError).toBody() };
}

describe("fidelity: each held series answered whole is its file", () => {
  it.each(heldSeries().map((s) => [s.id, s.file] as const))("%s", async (id, file) => {
    const rows = csv(file);
    const a = await ask(id, { limit: "10000" });
    expect(economySeriesResponse.safeParse(a).error).toBeUndefined();
    expect(a.count).toBe(rows.length);
    expect(a.has_more).toBe(false);
    expect(a.observations.map((o) => [o.date, o.value])).toEqual(rows.map(([d, v]) => [d, num(v)]));
    expect(a.observations.every((o) => o.published === null)).toBe(true);
    expect(a).toMatchObject({ distributor: "fred", realtime: { basis: "latest", as_of: null, vintage_date: null }, publication_dates: { held: false } });
    expect(a.coverage).toEqual({ first_date: rows[0]![0], last_date: rows.at(-1)![0] });
  });

  it("names each series' agency as source, with FRED's metadata, and dates the answer by its retrieval", async () => {
    const sources = Object.fromEntries(await Promise.all(heldSeries().map(async (s) => [s.id, (await ask(s.id, { limit: "1" })).source])));
    expect(sources).toEqual({
      ...{ FEDFUNDS: "federal_reserve", DFF: "federal_reserve", DGS3MO: "federal_reserve", DTB3: "federal_reserve", DGS2: "federal_reserve" },
      ...{ DGS10: "federal_reserve", DGS30: "federal_reserve", CPIAUCSL: "bls", UNRATE: "bls", PAYEMS: "bls", GDP: "bea", GDPC1: "bea" },
      GFDEBTN: "us_treasury",
    });
    expect(await ask("CPIAUCSL", { limit: "1" })).toMatchObject({
      as_of: "2026-01-02",
      units: "Index 1982-1984=100",
      frequency: "Monthly",
      seasonal_adjustment: "Seasonally Adjusted",
      publisher: "U.S. Bureau of Labor Statistics",
    });
  });
});

describe("the window", () => {
  it("start and end inclusive, newest first with sort=desc, limit with has_more", async () => {
    const a = await ask("DGS10", { start: "2026-03-02", end: "2026-03-06" });
    expect(a.observations.map((o) => o.date)).toEqual(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]);
    const latest = await ask("PAYEMS", { sort: "desc", limit: "2" });
    expect(latest.observations.map((o) => [o.date, o.value])).toEqual(
      csv("series/PAYEMS.csv")
        .slice(-2)
        .reverse()
        .map(([d, v]) => [d, num(v)]),
    );
    expect(latest).toMatchObject({ count: 2, has_more: true, sort: "desc" });
  });

  it("a window partly outside the file is served with what is held, and says what is not", async () => {
    const a = await ask("DGS10", { start: "2026-03-20", end: "2026-12-31" });
    expect(a.observations.at(-1)!.date).toBe("2026-03-26");
    expect(a.notes).toContain("Observations after 2026-03-26 are not held in the offline snapshot (retrieved 2026-03-30).");
  });

  it("dates without a value are null, with the series' reason", async () => {
    const a = await ask("CPIAUCSL", { start: "2025-09-01" });
    expect(a.observations.map((o) => [o.date, o.value])).toEqual([
      ["2025-09-01", 324.368],
      ["2025-10-01", null],
      ["2025-11-01", 325.031],
    ]);
    expect(a.notes.join(" ")).toMatch(/2025-10 has no value: BLS did not publish October 2025 CPI/);
    expect(a.notes.join(" ")).toMatch(/A null value is a date FRED lists without a value/);
  });

  it("the contract refuses an end before the start (400 naming end, before any payment)", () => {
    const r = economySeriesQuery.safeParse({ start: "2020-02-01", end: "2020-01-01" });
    expect(r.error?.issues[0]).toMatchObject({ path: ["end"], message: "end must be on or after start" });
  });
});

describe("as_of: the values as known on a past date", () => {
  const window = csv("vintages/alfred-2019-2020.csv");

  it.each(["UNRATE", "PAYEMS"])("%s: every vintage of ALFRED's window answers with that vintage's rows", async (id) => {
    const vintages = [...new Set(window.filter((r) => r[0] === id).map((r) => r[1]!))];
    for (const v of vintages) {
      const a = await ask(id, { as_of: v });
      const rows = window.filter((r) => r[0] === id && r[1] === v);
      expect(
        a.observations.map((o) => [o.date, o.value]),
        v,
      ).toEqual(rows.map(([, , d, val]) => [d, num(val)]));
      expect(a).toMatchObject({ as_of: v, realtime: { as_of: v, vintage_date: v, basis: "alfred_vintage" }, publication_dates: { held: true } });
    }
  });

  it("a day between two vintages answers with the earlier one; each value dated by the vintage that first carried it", async () => {
    const a = await ask("PAYEMS", { as_of: "2020-05-10", start: "2020-03-01" });
    expect(a.realtime.vintage_date).toBe("2020-05-08");
    // March 2020 was 151786 in the vintage of 2020-04-03 and revised to 151572 on 2020-05-08; April first printed then.
    // By 2020-11-06 March had been revised on 2020-06-05 (151090) and April on 2020-06-05 and 2020-07-02 (130303).
    expect(a.observations).toEqual([
      { date: "2020-03-01", value: 151572, published: "2020-05-08" },
      { date: "2020-04-01", value: 131072, published: "2020-05-08" },
    ]);
    const later = await ask("PAYEMS", { as_of: "2020-11-06", start: "2020-03-01", end: "2020-04-01" });
    expect(later.observations).toEqual([
      { date: "2020-03-01", value: 151090, published: "2020-06-05" },
      { date: "2020-04-01", value: 130303, published: "2020-07-02" },
    ]);
    const unrate = await ask("UNRATE", { as_of: "2020-11-06", start: "2020-04-01", end: "2020-04-01" });
    expect(unrate.observations).toEqual([{ date: "2020-04-01", value: 14.7, published: "2020-05-08" }]);
  });

  it("a dated snapshot answers on its own day only, whole, without publication dates", async () => {
    const rows = csv("vintages/UNRATE.csv").filter((r) => r[0] === "2026-01-02");
    const a = await ask("UNRATE", { as_of: "2026-01-02", limit: "10000" });
    expect(a.observations.map((o) => [o.date, o.value, o.published])).toEqual(rows.map(([, d, v]) => [d, num(v), null]));
    expect(a).toMatchObject({ realtime: { basis: "snapshot", vintage_date: "2026-01-02" }, publication_dates: { held: false } });
    expect((await ask("UNRATE", { as_of: "2026-01-02", start: "2025-11-01" })).observations[0]!.value).toBe(4.6);
    expect((await ask("UNRATE", { as_of: "2026-03-30", start: "2025-11-01" })).observations[0]!.value).toBe(4.5);
  });

  it("a date no held vintage answers is refused with the vintages held, never answered with today's values", async () => {
    for (const asOf of ["2019-07-04", "2020-11-07", "2026-01-03", "2026-03-31"]) {
      const r = await refusal(ask("UNRATE", { as_of: asOf }));
      expect(r, asOf).toMatchObject({ status: 403, error: "not_included", reason: "vintage_not_included", as_of: asOf });
      expect(r.vintages_held).toMatchObject({ alfred_window: { first: "2019-07-05", last: "2020-11-06" }, snapshots: ["2026-01-02", "2026-03-30"] });
    }
    const none = await refusal(ask("DGS10", { as_of: "2020-01-02" }));
    expect(none).toMatchObject({ status: 403, reason: "vintage_not_included", vintages_held: null, series_with_vintages: ["UNRATE", "PAYEMS"] });
  });

  it("observations outside a vintage's window are refused, or noted when the window is partly held", async () => {
    const r = await refusal(ask("UNRATE", { as_of: "2020-05-08", end: "2019-01-01" }));
    expect(r).toMatchObject({ status: 403, reason: "timeframe_not_included", coverage: { first_date: "2019-06-01", last_date: "2020-04-01" } });
    const a = await ask("UNRATE", { as_of: "2020-05-08", start: "2019-01-01" });
    expect(a.observations[0]!.date).toBe("2019-06-01");
    expect(a.notes).toContain("Observations before 2019-06-01 are not held in the vintage of 2020-05-08.");
  });
});

describe("what is not held", () => {
  it("a series not held: 403 series_not_included with the ids held", async () => {
    const r = await refusal(ask("GNPCA"));
    expect(r).toMatchObject({ status: 403, error: "not_included", reason: "series_not_included", series_id: "GNPCA" });
    expect(r.held).toEqual(heldSeries().map((s) => s.id));
  });

  it("DGS3MO after 2021-01-04: 403 with what is held, pointing at DTB3 on its discount basis", async () => {
    const r = await refusal(ask("DGS3MO", { start: "2021-02-01" }));
    expect(r).toMatchObject({
      status: 403,
      reason: "timeframe_not_included",
      coverage: { first_date: "2000-01-03", last_date: "2021-01-04" },
      alternative: { series_id: "DTB3" },
    });
    expect(r.detail).toMatch(/discount basis/);
    expect((await ask("DTB3", { start: "2021-02-01", limit: "1" })).observations[0]!.date).toBe("2021-02-01");
  });

  it("series ids are case-insensitive (FRED's are upper-case)", async () => {
    expect((await ask("dgs10", { limit: "1" })).series_id).toBe("DGS10");
  });
});

it("the archive feed covers every held series", () => {
  expect([...ARCHIVED_SERIES].sort()).toEqual(
    heldSeries()
      .map((s) => s.id)
      .sort(),
  );
});
