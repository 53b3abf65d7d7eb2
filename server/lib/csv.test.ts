import { describe, expect, it } from "vitest";
import { csvAmount, csvField, csvLine, csvTime, csvUsd } from "./csv";

describe("CSV fields", () => {
  it("writes amounts in dollars and cents, with more digits only where the amount has them", () => {
    expect(csvAmount(1_250_000n)).toBe("1.25");
    expect(csvAmount(500_000n)).toBe("0.50");
    expect(csvAmount(20_000n)).toBe("0.02");
    expect(csvAmount(15_000n)).toBe("0.015");
    expect(csvAmount(0n)).toBe("0.00");
    expect(csvAmount(1_234_567_000_000n)).toBe("1234567.00");
    expect(csvUsd("1.250000")).toBe("1.25");
    expect(csvUsd("-0.020000")).toBe("-0.02");
    expect(csvUsd("0.000123")).toBe("0.000123");
    expect(csvUsd(null)).toBe("");
  });

  it("quotes per RFC 4180, defuses spreadsheet formulas, writes UTC times a spreadsheet reads", () => {
    expect(csvField('a=1,2&b="x"')).toBe('"a=1,2&b=""x"""');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField(null)).toBe("");
    expect(csvField(3)).toBe("3");
    expect(csvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
    expect(csvTime("2026-01-02T03:04:05.678Z")).toBe("2026-01-02 03:04:05");
    expect(csvTime(null)).toBe("");
  });
});
