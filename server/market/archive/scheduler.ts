// The in-app archive scheduler: every ARCHIVE_CAPTURE_INTERVAL_SECONDS, capture the current UTC day if it
// is not captured yet, and sweep expired backtest artifacts. Safe with many instances (the capture takes a
// PostgreSQL advisory lock; a capture that finds the day done writes nothing).
import { env } from "../../env";
import { deleteExpiredArtifacts } from "../backtest/artifacts.queries";
import { captureArchive } from "./capture-archive";

const state = globalThis as unknown as { __marketArchiveScheduler?: { timer: NodeJS.Timeout; running: boolean } };

/** Idempotent; a no-op when ARCHIVE_SCHEDULER is off. Returns whether a scheduler is running. */
export function startArchiveScheduler(opts: { firstRunDelayMs?: number } = {}): boolean {
  if (state.__marketArchiveScheduler) return true;
  const e = env();
  if (!e.ARCHIVE_SCHEDULER) return false;
  const tick = async () => {
    const s = state.__marketArchiveScheduler;
    if (!s || s.running) return;
    s.running = true;
    try {
      const res = await captureArchive();
      if (res.type === "ran") {
        const captured = res.outcomes.filter((o) => o.status === "captured").length;
        const failed = res.outcomes.filter((o) => o.status === "failed");
        if (captured || failed.length) console.log(`[archive] ${res.observed_date}: ${captured} captured, ${failed.length} failed${failed.length ? ` (${failed.map((f) => `${f.feed}/${f.entity}`).join(", ")})` : ""}`);
      }
      await deleteExpiredArtifacts(new Date());
    } catch (err) {
      console.error("[archive] capture failed:", err instanceof Error ? err.message : err);
    } finally {
      s.running = false;
    }
  };
  const timer = setInterval(() => void tick(), e.ARCHIVE_CAPTURE_INTERVAL_SECONDS * 1000);
  timer.unref();
  state.__marketArchiveScheduler = { timer, running: false };
  setTimeout(() => void tick(), opts.firstRunDelayMs ?? 5_000).unref();
  return true;
}

export function stopArchiveScheduler(): void {
  const s = state.__marketArchiveScheduler;
  if (s) clearInterval(s.timer);
  state.__marketArchiveScheduler = undefined;
}
