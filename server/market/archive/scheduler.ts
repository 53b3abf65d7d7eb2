// The in-app archive scheduler: every ARCHIVE_CAPTURE_INTERVAL_SECONDS, capture the current UTC day if it
// is not captured yet, and sweep expired backtest artifacts. Safe with many instances (the capture takes a
// PostgreSQL advisory lock; a capture that finds the day done writes nothing).
import { env } from "../../env";
import { deleteExpiredArtifacts } from "../artifacts/artifacts.queries";
import { captureArchive, type CaptureOutcome } from "./capture-archive";
import type { FeedDef } from "./feed";

const state = globalThis as unknown as { __marketArchiveScheduler?: { timer: NodeJS.Timeout; running: boolean; notAvailable: Set<string> } };

/**
 * The log lines for one scheduled capture. A not_available feed (its provider does not include the data)
 * is retried every tick but reported once, the first time, in `notAvailable` (feed/entity keys), until it
 * is captured again; captured and failed feeds are reported on every tick that has any.
 */
export function captureLogLines(observedDate: string, outcomes: CaptureOutcome[], notAvailable: Set<string>): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    const key = `${o.feed}/${o.entity}`;
    if (o.status === "not_available") {
      if (!notAvailable.has(key)) lines.push(`[archive] ${key}: not available from this provider, not captured (${o.detail ?? "not_included"})`);
      notAvailable.add(key);
    } else if (o.status === "captured" || o.status === "already_captured") {
      notAvailable.delete(key);
    }
  }
  const captured = outcomes.filter((o) => o.status === "captured").length;
  const failed = outcomes.filter((o) => o.status === "failed");
  if (captured || failed.length)
    lines.push(
      `[archive] ${observedDate}: ${captured} captured, ${failed.length} failed${failed.length ? ` (${failed.map((f) => `${f.feed}/${f.entity}`).join(", ")})` : ""}`,
    );
  return lines;
}

/**
 * Idempotent; a no-op when ARCHIVE_SCHEDULER is off. Returns whether a scheduler is running. `feeds` is read on every
 * tick: the registry's list (`archiveFeeds` in server/market/operations), given by the instance's start-up.
 */
export function startArchiveScheduler(opts: { feeds: () => readonly FeedDef[]; firstRunDelayMs?: number }): boolean {
  if (state.__marketArchiveScheduler) return true;
  const e = env();
  if (!e.ARCHIVE_SCHEDULER) return false;
  const tick = async () => {
    const s = state.__marketArchiveScheduler;
    if (!s || s.running) return;
    s.running = true;
    try {
      const res = await captureArchive({ feeds: opts.feeds() });
      if (res.type === "ran") for (const line of captureLogLines(res.observed_date, res.outcomes, s.notAvailable)) console.log(line);
      await deleteExpiredArtifacts(new Date());
    } catch (err) {
      console.error("[archive] capture failed:", err instanceof Error ? err.message : err);
    } finally {
      s.running = false;
    }
  };
  const timer = setInterval(() => void tick(), e.ARCHIVE_CAPTURE_INTERVAL_SECONDS * 1000);
  timer.unref();
  state.__marketArchiveScheduler = { timer, running: false, notAvailable: new Set() };
  setTimeout(() => void tick(), opts.firstRunDelayMs ?? 5_000).unref();
  return true;
}

export function stopArchiveScheduler(): void {
  const s = state.__marketArchiveScheduler;
  if (s) clearInterval(s.timer);
  state.__marketArchiveScheduler = undefined;
}
