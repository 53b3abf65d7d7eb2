// The funnel's "challenges issued" without a row per 402 (docs/challenges.md): each instance counts its 402s in
// memory per seller, UTC day of issue and operation, and adds them to challenge_counts every few seconds and when it
// shuts down (instrumentation.ts), one upsert per flush. A crash loses the counts of its last few seconds, never
// money: no payment exists until something acts on a challenge's id, and then its row is written first.
import { addChallengeCounts, type ChallengeCountDelta } from "./challenge-counts.queries";

const FLUSH_EVERY_MS = 5_000;
/** A database that stays down does not grow the counters without bound: past this many keys, new counts are dropped. */
const MAX_KEYS = 100_000;

const pending = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> | undefined;

export function countChallengeIssued(sellerId: string, operationKey: string, at: Date = new Date()): void {
  const key = `${sellerId}\u0000${at.toISOString().slice(0, 10)}\u0000${operationKey}`;
  const n = pending.get(key);
  if (n === undefined && pending.size >= MAX_KEYS) return;
  pending.set(key, (n ?? 0) + 1);
  if (!timer) {
    timer = setInterval(
      () => void flushChallengeCounts().catch((e) => console.error("[challenge-counts] flush failed:", e instanceof Error ? e.message : e)),
      FLUSH_EVERY_MS,
    );
    timer.unref();
  }
}

/**
 * Add what this instance counted to challenge_counts now (tests call it to read the counts deterministically). Flushes
 * run one at a time; counts that fail to flush are kept for the next one.
 */
export async function flushChallengeCounts(): Promise<void> {
  while (flushing) await flushing.catch(() => {});
  if (!pending.size) return;
  const batch = [...pending];
  pending.clear();
  const deltas: ChallengeCountDelta[] = batch.map(([key, count]) => {
    const [sellerId, day, operationKey] = key.split("\u0000") as [string, string, string];
    return { sellerId, day, operationKey, count };
  });
  flushing = addChallengeCounts(deltas)
    .catch((e) => {
      for (const [key, n] of batch) pending.set(key, (pending.get(key) ?? 0) + n);
      throw e;
    })
    .finally(() => {
      flushing = undefined;
    });
  await flushing;
}

/** Flush once more when the process is asked to stop (Next.js drains its requests before it exits). */
export function flushChallengeCountsOnShutdown(): void {
  const last = () => void flushChallengeCounts().catch((e) => console.error("[challenge-counts] last flush failed:", e instanceof Error ? e.message : e));
  process.once("SIGTERM", last);
  process.once("SIGINT", last);
  process.once("beforeExit", last);
}
