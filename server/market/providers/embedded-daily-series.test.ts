import { describe, expect, it } from "vitest";
import { embeddedDailySeries } from "./embedded-daily-series";

describe("embedded daily series", () => {
  it("AAPL's pre-split volumes are whole multiples of 7, so the as-traded volumes are exact", () => {
    const raw = embeddedDailySeries("AAPL", false)!;
    const file = embeddedDailySeries("AAPL", true)!.map((b) => ({ date: b.date, volume: b.volume / 4 }));
    const pre = file.filter((b) => b.date < "2014-06-09");
    expect(pre).toHaveLength(270);
    expect(pre.every((b) => Number.isInteger(b.volume / 7))).toBe(true);
    expect(raw.filter((b) => b.date < "2014-06-09").every((b) => Number.isInteger(b.volume))).toBe(true);
  });
});
