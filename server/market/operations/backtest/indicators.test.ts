import { describe, expect, it } from "vitest";
import { rsiWilder, sma } from "./indicators";

// Tulip Indicators' published example for ti_rsi with period 5 (tulipindicators.org/rsi; the same input
// series and expected values are the library's test vector).
const TULIP_INPUT = [81.59, 81.06, 82.87, 83.0, 83.61, 83.15, 82.84, 83.99, 84.55, 84.36, 85.53, 86.54, 86.89, 87.77, 87.29];
const TULIP_RSI5 = [72.034, 64.927, 75.936, 79.796, 74.713, 83.033, 87.478, 88.755, 91.483, 78.498];

describe("rsiWilder", () => {
  it("matches the Tulip RSI(5) reference vector", () => {
    const out = rsiWilder(TULIP_INPUT, 5);
    expect(out.slice(0, 5)).toEqual([null, null, null, null, null]);
    const got = out.slice(5).map((v) => Math.round(v! * 1000) / 1000);
    expect(got).toEqual(TULIP_RSI5);
  });

  it("is 100 after only gains, 0 after only losses, and undefined without enough data", () => {
    expect(rsiWilder([1, 2, 3, 4], 3)[3]).toBe(100);
    expect(rsiWilder([4, 3, 2, 1], 3)[3]).toBe(0);
    expect(rsiWilder([1, 2, 3], 3)).toEqual([null, null, null]);
  });

  it("never looks ahead: changing a later value leaves earlier outputs unchanged", () => {
    const a = rsiWilder(TULIP_INPUT, 5);
    const b = rsiWilder([...TULIP_INPUT.slice(0, 10), 1, 1, 1, 1, 1], 5);
    expect(b.slice(0, 10)).toEqual(a.slice(0, 10));
  });
});

describe("sma", () => {
  it("averages the last n values", () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
    expect(sma([5], 1)).toEqual([5]);
  });
});
