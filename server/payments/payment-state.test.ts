import { describe, expect, it } from "vitest";
import { PAYMENT_STATES, stateSql, statesSql, transition, TRANSITIONS } from "./payment-state";

describe("payment state transitions", () => {
  it("give each statement its guard and its new state as SQL", () => {
    const release = transition("verified", "released");
    expect(release.guard()).toBe("status = 'verified'");
    expect(release.set).toBe("'released'");
    const refund = transition(["settled", "consumed"], "refunded");
    expect(refund.guard("p.status")).toBe("p.status in ('settled', 'consumed')");
    expect(refund.from).toEqual(["settled", "consumed"]);
    expect(refund.to).toBe("refunded");
  });

  it("refuse a move the table does not have, at compile time and when built", () => {
    // @ts-expect-error: a released payment never moves again
    expect(() => transition("released", "settled")).toThrow(/released -> settled is not a transition/);
    // @ts-expect-error: refunded is allowed from settled but not from challenged, so not from both
    expect(() => transition(["settled", "challenged"], "refunded")).toThrow(/challenged -> refunded/);
  });

  it("name only states the contract lists", () => {
    for (const [from, to] of Object.entries(TRANSITIONS)) {
      expect(PAYMENT_STATES).toContain(from);
      for (const s of to) expect(PAYMENT_STATES).toContain(s);
    }
    expect(stateSql("challenged")).toBe("'challenged'");
    expect(statesSql(["released", "failed"])).toBe("('released', 'failed')");
  });
});
