// The token bucket EDGAR's adapter takes a token from before every request: on a simulated clock (no real waiting), a
// burst of calls goes out no faster than the rate, in arrival order.
import { describe, expect, it } from "vitest";
import { createTokenBucket } from "./token-bucket";

function simulatedClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe("token bucket", () => {
  it("lets 30 concurrent callers through at most 10 in any second, the first at once, in arrival order", async () => {
    const clock = simulatedClock();
    const bucket = createTokenBucket({ perSecond: 10, ...clock });
    const times: number[] = [];
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        bucket.take().then(() => {
          times.push(clock.now());
          order.push(i);
        }),
      ),
    );
    expect(times[0]).toBe(0);
    expect(order).toEqual([...Array(30).keys()]);
    // Any 11 consecutive requests span at least a second: never more than 10 within one.
    for (let i = 0; i + 10 < times.length; i++) expect(times[i + 10]! - times[i]!).toBeGreaterThanOrEqual(1000);
    expect(times.at(-1)).toBeLessThanOrEqual(3000);
  });

  it("refills while idle: after a pause the next call goes at once", async () => {
    const clock = simulatedClock();
    const bucket = createTokenBucket({ perSecond: 10, ...clock });
    await bucket.take();
    await clock.sleep(500);
    const before = clock.now();
    await bucket.take();
    expect(clock.now()).toBe(before);
  });

  it("allows a burst up to its capacity, then the rate", async () => {
    const clock = simulatedClock();
    const bucket = createTokenBucket({ perSecond: 10, capacity: 5, ...clock });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) times.push(await bucket.take().then(() => clock.now()));
    expect(times).toEqual([0, 0, 0, 0, 0, 100, 200]);
  });
});
