// The free listing of economic series: every series held, described as the catalog and the files describe it, found by
// the words agents use, with the vintages held; and what answers live beyond the list.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { economySeriesListQuery, economySeriesListResponse } from "./contract";
import { listEconomySeries } from "./list-economy-series";

const catalog = JSON.parse(fs.readFileSync(path.join(process.cwd(), "data/economy/catalog.json"), "utf8")) as Record<string, string | number>[];
const list = (q: Record<string, string> = {}, kind: "embedded" | "live" = "embedded") => listEconomySeries(economySeriesListQuery.parse(q), kind);
const ids = (q: Record<string, string>) => list(q).series.map((s) => s.series_id);

describe("the listing", () => {
  it("lists every series of the catalog with its metadata and the dates its file holds", () => {
    const all = list();
    expect(economySeriesListResponse.safeParse(all).error).toBeUndefined();
    expect(all.count).toBe(catalog.length);
    for (const c of catalog) {
      const rows = fs
        .readFileSync(path.join(process.cwd(), "data/economy", String(c.file)), "utf8")
        .trim()
        .split("\n")
        .slice(1);
      expect(all.series.find((s) => s.series_id === c.id)).toMatchObject({
        title: c.title,
        units: c.units,
        frequency: c.frequency,
        seasonal_adjustment: c.seasonal_adjustment,
        publisher: c.publisher,
        path: `/api/v1/economy/series/${c.id}`,
        coverage: { offline: { first_date: rows[0]!.split(",")[0], last_date: rows.at(-1)!.split(",")[0], observations: rows.length, retrieved: c.retrieved } },
      });
    }
  });

  it("states the vintages held: UNRATE and PAYEMS only, ALFRED's window and the two snapshots", () => {
    const held = list().series.filter((s) => s.vintages.held);
    expect(held.map((s) => [s.series_id, s.vintages.offline?.alfred_window?.vintages])).toEqual([
      ["UNRATE", 17],
      ["PAYEMS", 18],
    ]);
    expect(held[0]!.vintages.offline).toMatchObject({
      alfred_window: { first: "2019-07-05", last: "2020-11-06", observations: { first: "2019-06-01", last: "2020-10-01" } },
      snapshots: ["2026-01-02", "2026-03-30"],
    });
  });

  it.each([
    ["cpi", ["CPIAUCSL"]],
    ["fed funds", ["FEDFUNDS", "DFF"]],
    ["10-year", ["DGS10"]],
    ["unemployment", ["UNRATE"]],
    ["payrolls", ["PAYEMS"]],
    ["gdp", ["GDP", "GDPC1"]],
    ["debt", ["GFDEBTN"]],
    ["3-month treasury", ["DGS3MO", "DTB3"]],
    ["inflation", ["CPIAUCSL"]],
    ["no such thing", []],
  ])("q=%s finds %j", (q, expected) => {
    expect(ids({ q })).toEqual(expected);
  });

  it("filters by the publishing agency", () => {
    expect(ids({ source: "bea" })).toEqual(["GDP", "GDPC1"]);
    expect(ids({ source: "bls", q: "jobs" })).toEqual(["UNRATE", "PAYEMS"]);
  });

  it("says DGS3MO ends and what to use instead; says what answers live beyond the list", () => {
    expect(list({ q: "DGS3MO" }).series[0]!.notes[0]).toMatch(/DTB3 is the current 3-month rate here, on a discount basis/);
    expect(list().offered).toMatch(/another id answers 403 not_included/);
    expect(list({}, "live").offered).toMatch(/any other FRED series id live/);
  });
});
