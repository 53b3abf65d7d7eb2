import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chainMsSoFar, chainWait, dbMsSoFar, dbWait, timeRequest } from "./request-timing";

// Fake clocks: the accounting is checked exactly, not timed.
beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "performance"] }));
afterEach(() => void vi.useRealTimers());

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function measure(fn: () => Promise<void>): Promise<{ chain: number; db: number }> {
  const run = timeRequest(async () => {
    await fn();
    return { chain: chainMsSoFar(), db: dbMsSoFar() };
  });
  await vi.runAllTimersAsync();
  return (await run).result;
}

describe("request timing", () => {
  it("counts waits of one kind in turn, and nested waits once", async () => {
    const t = await measure(async () => {
      await chainWait(() => wait(30));
      await dbWait(() => wait(5));
      await chainWait(() => chainWait(() => wait(10)));
      await wait(7); // own work: neither
    });
    expect(t).toEqual({ chain: 40, db: 5 });
  });

  it("counts a statement that travels while the chain answers as chain time only", async () => {
    const t = await measure(async () => {
      await Promise.all([chainWait(() => wait(40)), dbWait(() => wait(20))]);
    });
    expect(t).toEqual({ chain: 40, db: 0 });
  });

  it("counts the part of a statement that outlasts the chain as db time", async () => {
    const t = await measure(async () => {
      await Promise.all([chainWait(() => wait(20)), dbWait(() => wait(45))]);
      await Promise.all([dbWait(() => wait(10)), dbWait(() => wait(15))]);
    });
    expect(t).toEqual({ chain: 20, db: 25 + 15 });
  });

  it("collects nothing outside a timed request", async () => {
    const p = chainWait(() => wait(10));
    await vi.runAllTimersAsync();
    await p;
    expect(chainMsSoFar()).toBe(0);
  });
});
