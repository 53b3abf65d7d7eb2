import { describe, expect, it } from "vitest";
import { addDays, isUsMarketOpen, newYorkClock, newYorkMidnightIso, newYorkMidnightMs } from "./dates";

describe("newYorkMidnightMs", () => {
  it("agrees with the time zone database on every day from 1900 to 2100 (rule-based fast path included)", () => {
    for (let d = "1900-01-01"; d <= "2100-12-31"; d = addDays(d, 1)) {
      const ms = newYorkMidnightMs(d);
      const c = newYorkClock(new Date(ms));
      if (newYorkMidnightIso(d) !== new Date(ms).toISOString()) throw new Error(`${d}: iso ${newYorkMidnightIso(d)}`);
      if (c.date !== d || c.hour !== 0 || c.minute !== 0) throw new Error(`${d}: ${new Date(ms).toISOString()} is ${c.date} ${c.hour}:${c.minute} in New York`);
    }
    expect(new Date(newYorkMidnightMs("2024-03-10")).toISOString()).toBe("2024-03-10T05:00:00.000Z");
    expect(new Date(newYorkMidnightMs("2024-03-11")).toISOString()).toBe("2024-03-11T04:00:00.000Z");
    expect(new Date(newYorkMidnightMs("2024-11-03")).toISOString()).toBe("2024-11-03T04:00:00.000Z");
    expect(new Date(newYorkMidnightMs("2024-11-04")).toISOString()).toBe("2024-11-04T05:00:00.000Z");
  });
});

describe("isUsMarketOpen", () => {
  it("is the 09:30-16:00 New York session on weekdays", () => {
    expect(isUsMarketOpen(new Date("2025-08-15T13:29:00Z"))).toBe(false);
    expect(isUsMarketOpen(new Date("2025-08-15T13:30:00Z"))).toBe(true);
    expect(isUsMarketOpen(new Date("2025-08-15T19:59:00Z"))).toBe(true);
    expect(isUsMarketOpen(new Date("2025-08-15T20:00:00Z"))).toBe(false);
    expect(isUsMarketOpen(new Date("2025-08-16T15:00:00Z"))).toBe(false);
  });
});
