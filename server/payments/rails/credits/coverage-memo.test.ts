import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { endEarly, forgetCoverage, mayStartEarly, noteCoverage, reservationTurn, resetCoverageForTests } from "./coverage-memo";

const PRICE = 20_000n;

beforeEach(() => {
  resetCoverageForTests();
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => void vi.useRealTimers());

describe("coverage memo", () => {
  it("starts nothing early for a credential it has not seen covered", () => {
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
  });

  it("starts one call early at a time, only when the balance seen covers it and one more", async () => {
    noteCoverage("cred_a", "aggregates", 2n * PRICE);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(true);
    // The first is in flight: no second early start.
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
    const done = await reservationTurn("cred_a", "aggregates", { early: true });
    done();
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(true);
    endEarly("cred_a", "aggregates");
    // Another meter, another credential: seen separately.
    expect(mayStartEarly("cred_a", "trades", PRICE)).toBe(false);
    expect(mayStartEarly("cred_b", "aggregates", PRICE)).toBe(false);
    // The last covered call never starts early.
    noteCoverage("cred_a", "aggregates", PRICE);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
  });

  it("starts nothing early while another reservation of the credential is in flight", async () => {
    noteCoverage("cred_a", "aggregates", 100n * PRICE);
    const done = await reservationTurn("cred_a", "aggregates", { early: false });
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
    done();
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(true);
  });

  it("lets the early call reserve first: the credential's other calls wait for it", async () => {
    noteCoverage("cred_a", "aggregates", 100n * PRICE);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(true);
    const order: string[] = [];
    const other = reservationTurn("cred_a", "aggregates", { early: false }).then((d) => (order.push("other"), d));
    await Promise.resolve();
    const mine = await reservationTurn("cred_a", "aggregates", { early: true });
    order.push("early");
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["early"]);
    mine();
    (await other)();
    expect(order).toEqual(["early", "other"]);
  });

  it("keeps the lowest balance seen (replies arrive out of order), forgets it after a few seconds or when nothing covered", () => {
    noteCoverage("cred_a", "aggregates", 10n * PRICE);
    noteCoverage("cred_a", "aggregates", PRICE);
    noteCoverage("cred_a", "aggregates", 9n * PRICE);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
    vi.advanceTimersByTime(5_001);
    // Stale: a new reservation's balance replaces it, even a higher one (a top-up).
    noteCoverage("cred_a", "aggregates", 200n * PRICE);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(true);
    endEarly("cred_a", "aggregates");
    vi.advanceTimersByTime(5_001);
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
    noteCoverage("cred_a", "aggregates", 200n * PRICE);
    forgetCoverage("cred_a", "aggregates");
    expect(mayStartEarly("cred_a", "aggregates", PRICE)).toBe(false);
  });
});
