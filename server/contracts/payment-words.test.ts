import { describe, expect, it } from "vitest";
import { PAYMENT_STATES } from "./payment-status";
import { cardRefundWords, stateLabel, stateWordsOf, STATUS_WORDS } from "./payment-words";

describe("payment words", () => {
  it("names every state of the contract in words, never its protocol name", () => {
    for (const s of PAYMENT_STATES) {
      expect(STATUS_WORDS[s]).toMatch(/^[A-Z][a-z]/);
      expect(STATUS_WORDS[s]).not.toBe(s);
    }
    expect(STATUS_WORDS.consumed).toBe("Succeeded");
  });

  it("reads derived states as a card dashboard does, the protocol word kept for the hover", () => {
    expect(stateLabel({ status: "consumed", partiallyRefunded: true }).label).toBe("Partially refunded");
    expect(stateLabel({ status: "challenged", expired: true }).label).toBe("Expired");
    expect(stateLabel({ status: "verified", settling: true })).toMatchObject({
      label: "Pending (settling)",
      title: expect.stringMatching(/^verified \(settling\)/),
    });
    // An audit row's after-state of a partial card refund, and text that is no state.
    expect(stateWordsOf("partially_refunded")).toMatchObject({ label: "Partially refunded", title: expect.stringMatching(/^partially_refunded:/) });
    expect(stateWordsOf("live")).toBeNull();
  });

  it("says a card refund with its cause in words", () => {
    expect(cardRefundWords({ status: "succeeded", cause: "seller" })).toBe("Refunded (by the seller)");
    expect(cardRefundWords({ status: "pending", cause: "delivery_failed" })).toBe(
      "Pending at the card processor (automatic: the call failed after the charge)",
    );
  });
});
