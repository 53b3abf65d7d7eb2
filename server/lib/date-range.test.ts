import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { percentChange, rangeBuckets, resolveRange } from "./date-range";

const now = new Date("2026-03-10T10:30:00.000Z");

describe("console date ranges", () => {
  it("today is compared with yesterday up to the same time", () => {
    const r = resolveRange({ preset: "today" }, now);
    expect(r).toMatchObject({ from: "2026-03-10", to: "2026-03-10", days: 1, bucket: "hour" });
    expect(r.start.toISOString()).toBe("2026-03-10T00:00:00.000Z");
    expect(r.end.toISOString()).toBe("2026-03-11T00:00:00.000Z");
    expect(r.prevStart.toISOString()).toBe("2026-03-09T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2026-03-09T10:30:00.000Z");
    expect(rangeBuckets(r, now)).toEqual(Array.from({ length: 11 }, (_, h) => `2026-03-10T${String(h).padStart(2, "0")}`));
  });

  it("the last N days end today; the previous N days before them, cut at the same time", () => {
    const r = resolveRange({ preset: "7d" }, now);
    expect(r).toMatchObject({ from: "2026-03-04", to: "2026-03-10", days: 7, bucket: "day" });
    expect(r.prevStart.toISOString()).toBe("2026-02-25T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2026-03-03T10:30:00.000Z");
    expect(rangeBuckets(r, now)).toEqual(["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(resolveRange({}, now)).toMatchObject({ preset: "30d", from: "2026-02-09", days: 30 });
  });

  it("a past custom range is compared with whole days before it", () => {
    const r = resolveRange({ preset: "custom", from: "2026-02-27", to: "2026-03-01" }, now);
    expect(r).toMatchObject({ days: 3, bucket: "day" });
    expect(r.prevStart.toISOString()).toBe("2026-02-24T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2026-02-27T00:00:00.000Z");
  });

  it("refuses impossible ranges with a 400 naming the parameter", () => {
    const bad = [
      { preset: "custom" as const, from: "2026-03-01" },
      { preset: "custom" as const, from: "2026-03-05", to: "2026-03-01" },
      { preset: "custom" as const, from: "2026-03-01", to: "2026-03-11" },
      { preset: "custom" as const, from: "2026-02-30", to: "2026-03-01" },
      { preset: "custom" as const, from: "2024-01-01", to: "2026-03-01" },
    ];
    for (const input of bad) {
      let err: unknown;
      try {
        resolveRange(input, now);
      } catch (e) {
        err = e;
      }
      expect(isAppError(err) && err.code === "invalid_request", JSON.stringify(input)).toBe(true);
    }
  });

  it("changes are in percent, one decimal, rounded half away from zero; none against nothing", () => {
    expect(percentChange(1_110_000n, 40_000n)).toBe("+2675.0");
    expect(percentChange(50n, 100n)).toBe("-50.0");
    expect(percentChange(100n, 100n)).toBe("0.0");
    expect(percentChange(1235n, 1000n)).toBe("+23.5");
    expect(percentChange(10_005n, 10_000n)).toBe("+0.1");
    expect(percentChange(9_995n, 10_000n)).toBe("-0.1");
    expect(percentChange(5n, 0n)).toBeNull();
  });
});

describe("month to date", () => {
  it("runs from the first of the month to today, against the same days of the month before up to the same time", () => {
    const r = resolveRange({ preset: "mtd" }, now);
    expect(r).toMatchObject({ preset: "mtd", from: "2026-03-01", to: "2026-03-10", days: 10, bucket: "day" });
    expect(r.prevStart.toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2026-02-10T10:30:00.000Z");
  });

  it("on the 31st, the month before is compared whole (it has no 31st), never past its end", () => {
    const r = resolveRange({ preset: "mtd" }, new Date("2026-03-31T08:00:00.000Z"));
    expect(r).toMatchObject({ from: "2026-03-01", days: 31 });
    expect(r.prevStart.toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("on the first of a month, it is one day, by hour", () => {
    const r = resolveRange({ preset: "mtd" }, new Date("2026-01-01T05:00:00.000Z"));
    expect(r).toMatchObject({ from: "2026-01-01", to: "2026-01-01", days: 1, bucket: "hour" });
    expect(r.prevStart.toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect(r.prevEnd.toISOString()).toBe("2025-12-01T05:00:00.000Z");
  });
});
