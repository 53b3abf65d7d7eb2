import { describe, expect, it } from "vitest";
import { signChallenge, verifyChallenge, type ChallengeBinding } from "./challenge-token";

const base: ChallengeBinding = {
  paymentId: "pay_abc",
  sellerId: "sel_1",
  method: "GET",
  path: "/api/v1/aggregates/AAPL",
  query: "from=2024-01-02&to=2024-01-31",
  amountMicros: 20_000n,
  payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
  expiresAt: 1_900_000_000,
};

describe("402 challenge signature", () => {
  it("verifies for the same request, whatever the query order or address case", () => {
    const token = signChallenge(base);
    expect(verifyChallenge(base, token)).toBe(true);
    expect(verifyChallenge({ ...base, query: "?to=2024-01-31&from=2024-01-02" }, token)).toBe(true);
    expect(verifyChallenge({ ...base, payTo: base.payTo.toLowerCase() }, token)).toBe(true);
  });
  it.each([
    ["method", { method: "POST" }],
    ["path", { path: "/api/v1/aggregates/MSFT" }],
    ["query", { query: "from=2024-01-02&to=2024-02-29" }],
    ["amount", { amountMicros: 1n }],
    ["payTo", { payTo: "0x0000000000000000000000000000000000000001" }],
    ["expiry", { expiresAt: 1_900_000_001 }],
    ["seller", { sellerId: "sel_2" }],
    ["payment id", { paymentId: "pay_other" }],
  ])("fails when the %s differs", (_name, change) => {
    expect(verifyChallenge({ ...base, ...change }, signChallenge(base))).toBe(false);
  });
  it("refuses tokens of the wrong length or garbage", () => {
    expect(verifyChallenge(base, "v1.")).toBe(false);
    expect(verifyChallenge(base, signChallenge(base) + "x")).toBe(false);
  });
});
