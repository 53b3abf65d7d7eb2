import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "../../env";
import { startArchiveScheduler, stopArchiveScheduler } from "./scheduler";

afterEach(() => {
  stopArchiveScheduler();
  process.env.ARCHIVE_SCHEDULER = "off";
  resetEnvForTests();
});

describe("startArchiveScheduler", () => {
  it("does nothing when ARCHIVE_SCHEDULER is off", () => {
    process.env.ARCHIVE_SCHEDULER = "off";
    resetEnvForTests();
    expect(startArchiveScheduler()).toBe(false);
  });

  it("starts once, however often it is called", () => {
    process.env.ARCHIVE_SCHEDULER = "on";
    resetEnvForTests();
    const holder = globalThis as unknown as { __marketArchiveScheduler?: { timer: unknown } };
    expect(startArchiveScheduler({ firstRunDelayMs: 3_600_000 })).toBe(true);
    const timer = holder.__marketArchiveScheduler!.timer;
    expect(startArchiveScheduler({ firstRunDelayMs: 3_600_000 })).toBe(true);
    expect(holder.__marketArchiveScheduler!.timer).toBe(timer);
  });
});
