// The capture job: for the current UTC day, record each feed's live payload per entity, once. A day
// already captured is left alone (never overwritten); a clock behind the latest captured day writes
// nothing (never backfilled). The database enforces both (unique day, triggers); this code just avoids
// asking. Runs under a PostgreSQL advisory lock, so many app instances and the CLI can run it at once.
// A feed whose provider does not include its data (403 not_included, e.g. basis on the embedded data
// without a recorded snapshot) is `not_available`: nothing is written and it is not a failure.
import { isAppError } from "../../errors";
import { newId } from "../../lib/ids";
import { utcDate } from "../lib/dates";
import { systemClock, type Clock } from "../lib/envelope";
import { getMarketProviders } from "../providers/get-market-providers";
import type { MarketProviders } from "../providers/types";
import { insertArchiveDay, latestCapturedDate, withCaptureLock } from "./archive.queries";
import { contentHash } from "./canonical-json";
import type { FeedDef } from "./feed";

export type CaptureStatus = "captured" | "already_captured" | "clock_behind_archive" | "not_available" | "failed";
export type CaptureOutcome = { feed: string; entity: string; status: CaptureStatus; detail?: string };
export type CaptureResult = { type: "locked" } | { type: "ran"; observed_date: string; outcomes: CaptureOutcome[] };

/** `feeds`: the registry's (`archiveFeeds()` in server/market/operations), or a test's own. */
export async function captureArchive(deps: { feeds: readonly FeedDef[]; now?: Clock; providers?: MarketProviders }): Promise<CaptureResult> {
  const now = deps.now ?? systemClock;
  const feeds = deps.feeds;
  const providers = deps.providers ?? getMarketProviders();
  const observedAt = now();
  const observedDate = utcDate(observedAt);

  const res = await withCaptureLock(async (tx) => {
    const outcomes: CaptureOutcome[] = [];
    for (const f of feeds) {
      for (const entity of f.entities) {
        const latest = await latestCapturedDate(tx, f.feed, entity);
        if (latest === observedDate) {
          outcomes.push({ feed: f.feed, entity, status: "already_captured" });
          continue;
        }
        if (latest !== null && latest > observedDate) {
          outcomes.push({ feed: f.feed, entity, status: "clock_behind_archive", detail: `latest captured day is ${latest}` });
          continue;
        }
        try {
          const payload = (await f.fetch(entity, { providers, now, observedDate })) as object;
          const capturedAt = now();
          const inserted = await insertArchiveDay(tx, {
            id: newId("arc"),
            feed: f.feed,
            entity,
            observedDate,
            observedAt,
            capturedAt,
            ingestedAt: now(),
            contentHash: contentHash(payload),
            summary: f.summarize(payload),
            payload,
          });
          outcomes.push({ feed: f.feed, entity, status: inserted ? "captured" : "already_captured" });
        } catch (err) {
          if (isAppError(err) && err.code === "not_included") {
            // The provider does not hold this data at all: not a failure, and no row.
            outcomes.push({ feed: f.feed, entity, status: "not_available", detail: err.detail ?? err.message });
            continue;
          }
          // A feed that fails today is simply missing today; the others are still captured.
          outcomes.push({ feed: f.feed, entity, status: "failed", detail: err instanceof Error ? err.message : String(err) });
        }
      }
    }
    return outcomes;
  });
  return res === null ? { type: "locked" } : { type: "ran", observed_date: observedDate, outcomes: res };
}

/** Exit code of a capture run (npm run archive:capture): 2 when a feed failed, else 0 (not_available is not a failure). */
export function captureExitCode(outcomes: CaptureOutcome[]): 0 | 2 {
  return outcomes.some((o) => o.status === "failed") ? 2 : 0;
}
