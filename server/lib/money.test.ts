import { describe, expect, it } from "vitest";
import { formatUsd, isWholeCents, microsToCents, microsToUsd, parseUsd, weiToEth, weiToMicros } from "./money";

describe("money", () => {
  it("prints micros with six decimals", () => {
    expect(microsToUsd(20_000n)).toBe("0.020000");
    expect(microsToUsd(500_000n)).toBe("0.500000");
    expect(microsToUsd(1_234_567_891n)).toBe("1234.567891");
    expect(microsToUsd(0n)).toBe("0.000000");
    expect(microsToUsd(-10_000n)).toBe("-0.010000");
  });
  it("prints cents", () => {
    expect(microsToCents(500_000n)).toBe("0.50");
    expect(microsToCents(1_000_000_000n)).toBe("1000.00");
  });
  it("formats for people", () => {
    expect(formatUsd(20_000n)).toBe("$0.02");
    expect(formatUsd(500_000n)).toBe("$0.50");
    expect(formatUsd(123n)).toBe("$0.000123");
    expect(formatUsd(3_000_000n)).toBe("$3.00");
  });
  it("parses decimals exactly, refusing anything else", () => {
    expect(parseUsd("0.02")).toBe(20_000n);
    expect(parseUsd("12.5")).toBe(12_500_000n);
    expect(parseUsd("0.000001")).toBe(1n);
    expect(parseUsd("0.0000001")).toBeNull();
    expect(parseUsd("-1")).toBeNull();
    expect(parseUsd("1e3")).toBeNull();
    expect(parseUsd("")).toBeNull();
    expect(parseUsd("0x10")).toBeNull();
    // floats would get this wrong: 0.1 + 0.2
    expect(parseUsd("0.1")! + parseUsd("0.2")!).toBe(parseUsd("0.3"));
  });
  it("checks whole cents", () => {
    expect(isWholeCents(500_000n)).toBe(true);
    expect(isWholeCents(500_001n)).toBe(false);
  });
});

describe("gas in ETH and at a seller's rate", () => {
  it("prints wei as exact ETH", () => {
    expect(weiToEth(600_000_000_000n)).toBe("0.0000006");
    expect(weiToEth(10n ** 18n)).toBe("1.0");
    expect(weiToEth(1n)).toBe("0.000000000000000001");
    expect(weiToEth(0n)).toBe("0.0");
  });
  it("converts wei to micro-USD at a rate, rounding half up", () => {
    // 0.000006 ETH at $2,500 = $0.015
    expect(weiToMicros(6_000_000_000_000n, 2_500_000_000n)).toBe(15_000n);
    // 1 wei at $3,000 is 3e-9 micro-USD: rounds to 0; half a micro rounds up.
    expect(weiToMicros(1n, 3_000_000_000n)).toBe(0n);
    expect(weiToMicros(500_000_000_000n, 1_000_000n)).toBe(1n);
  });
});
