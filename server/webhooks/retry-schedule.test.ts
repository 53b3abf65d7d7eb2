import { describe, expect, it } from "vitest";
import { nextRetryDelay, parseRetrySchedule } from "./retry-schedule";

describe("the retry schedule", () => {
  const delays = parseRetrySchedule("5,300,1800,7200,18000,36000,50400,72000,86400");

  it("by default retries nine times over about three days", () => {
    expect(delays).toHaveLength(9);
    const total = delays.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(total).toBeGreaterThan(72);
    expect(total).toBeLessThan(80);
  });

  it("waits the n-th delay (within 10%) after the n-th failed attempt, then gives up", () => {
    expect(nextRetryDelay(1, null, delays, () => 0.5)).toBe(5_000);
    expect(nextRetryDelay(2, null, delays, () => 0)).toBe(270_000);
    expect(nextRetryDelay(2, null, delays, () => 1)).toBe(330_000);
    expect(nextRetryDelay(9, null, delays, () => 0.5)).toBe(86_400_000);
    expect(nextRetryDelay(10, null, delays, () => 0.5)).toBeNull();
  });

  it("a resend allows exactly one more attempt", () => {
    expect(nextRetryDelay(11, 11, delays)).toBeNull();
    expect(nextRetryDelay(2, 3, delays, () => 0.5)).toBe(300_000);
  });
});
