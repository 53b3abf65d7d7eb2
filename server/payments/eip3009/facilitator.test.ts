import { describe, expect, it } from "vitest";
import { classifySettle } from "./facilitator";

const base = { network: "eip155:8453" as const, transaction: "" };

describe("classifySettle", () => {
  it("settled", () => {
    expect(classifySettle({ ...base, success: true, transaction: "0xabc", payer: "0x1" })).toEqual({ type: "settled", transaction: "0xabc", payer: "0x1" });
  });
  it("definitive failures name the reason", () => {
    expect(classifySettle({ ...base, success: false, errorReason: "invalid_exact_evm_insufficient_balance" })).toMatchObject({
      type: "failed",
      reason: "invalid_exact_evm_insufficient_balance",
    });
    expect(
      classifySettle({
        ...base,
        success: false,
        errorReason: "invalid_exact_evm_transaction_failed",
        errorMessage: "execution reverted: FiatTokenV2: authorization is used or canceled",
      }),
    ).toMatchObject({ type: "failed" });
  });
  it("transport trouble and gas-wallet nonce races are retried, not failed", () => {
    for (const errorMessage of [
      "HTTP request failed. Details: fetch failed",
      "nonce too low: next nonce 12, tx nonce 11",
      "The request took too long to respond (timed out)",
    ])
      expect(classifySettle({ ...base, success: false, errorReason: "invalid_exact_evm_transaction_failed", errorMessage })).toMatchObject({ type: "pending" });
    expect(classifySettle({ ...base, success: false, errorReason: "settlement_pending", transaction: "0xabc" })).toMatchObject({
      type: "pending",
      transaction: "0xabc",
    });
  });
});
