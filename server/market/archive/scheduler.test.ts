import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "../../env";
import type { CaptureOutcome } from "./capture-archive";
import { captureLogLines, startArchiveScheduler, stopArchiveScheduler } from "./scheduler";

afterEach(() => {
  stopArchiveScheduler();
  process.env.ARCHIVE_SCHEDULER = "off";
  resetEnvForTests();
});

describe("startArchiveScheduler", () => {
  it("does nothing when ARCHIVE_SCHEDULER is off", () => {
    process.env.ARCHIVE_SCHEDULER = "off";
    resetEnvForTests();
    expect(startArchiveScheduler({ feeds: () => [] })).toBe(false);
  });

  it("starts once, however often it is called", () => {
    process.env.ARCHIVE_SCHEDULER = "on";
    resetEnvForTests();
    const holder = globalThis as unknown as { __marketArchiveScheduler?: { timer: unknown } };
    expect(startArchiveScheduler({ feeds: () => [], firstRunDelayMs: 3_600_000 })).toBe(true);
    const timer = holder.__marketArchiveScheduler!.timer;
    expect(startArchiveScheduler({ feeds: () => [], firstRunDelayMs: 3_600_000 })).toBe(true);
    expect(holder.__marketArchiveScheduler!.timer).toBe(timer);
  });
});

describe("captureLogLines", () => {
  const na: CaptureOutcome = { feed: "basis", entity: "us_equity_perps", status: "not_available", detail: "no recorded snapshot" };
  it("reports a not_available feed once, not on every tick, and not as a failure", () => {
    const seen = new Set<string>();
    const first = captureLogLines("2090-01-01", [{ feed: "aggregates", entity: "AAPL", status: "captured" }, na], seen);
    expect(first).toEqual([
      "[archive] basis/us_equity_perps: not available from this provider, not captured (no recorded snapshot)",
      "[archive] 2090-01-01: 1 captured, 0 failed",
    ]);
    expect(captureLogLines("2090-01-01", [{ feed: "aggregates", entity: "AAPL", status: "already_captured" }, na], seen)).toEqual([]);
    expect(captureLogLines("2090-01-02", [na], seen)).toEqual([]);
  });

  it("reports failures every time, and a feed that becomes unavailable again after a capture", () => {
    const seen = new Set<string>(["basis/us_equity_perps"]);
    const failed: CaptureOutcome = { feed: "avg_interest_rates", entity: "us_treasury", status: "failed", detail: "vendor down" };
    expect(captureLogLines("2090-01-01", [failed], seen)).toEqual(["[archive] 2090-01-01: 0 captured, 1 failed (avg_interest_rates/us_treasury)"]);
    expect(captureLogLines("2090-01-01", [failed], seen)).toHaveLength(1);
    captureLogLines("2090-01-02", [{ ...na, status: "captured", detail: undefined }], seen);
    expect(captureLogLines("2090-01-03", [na], seen)).toHaveLength(1);
  });
});
