// Rolls each seller's closed days into the daily tables the console reads long ranges from (rollup.queries.ts). A day
// is rolled once it can no longer change:
//  - every ledger row and refusal of it is written (created_at is the insert time: the day has ended, with a margin
//    for a transaction that began before midnight and committed after);
//  - none of its challenges can still be paid (the challenge lifetime has passed since midnight);
//  - none of its payments is still verified (being served, or settling: a stuck settlement holds the day back).
// A released, failed, settled, consumed or refunded payment stays in the same funnel step for good (a refund does
// not move a settled call out of "settled"), and the day's unpaid challenges are counted whether the reconciler has
// deleted them yet or not (see rollUpDay). Runs on every instance (start-up, then every few minutes); the watermark
// guard makes that safe.
import { env } from "../env";
import { findFirstActivityDay, findNextActivityDay, findSellersBehind, hasPaymentsInFlight, rollUpDay, skipEmptyDays, startWatermark } from "./rollup.queries";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A transaction that began before midnight is committed well within this. */
const COMMIT_MARGIN_MS = 10 * 60_000;

/** The last day that may be final at `now`: its end plus the challenge lifetime and the margin have passed. */
export function lastClosedDay(now: Date): string {
  const settleBy = env().PAYMENT_CHALLENGE_TTL_SECONDS * 1000 + COMMIT_MARGIN_MS;
  return dayOf(Math.floor((now.getTime() - settleBy) / DAY_MS) * DAY_MS - DAY_MS);
}

export type RollupReport = { sellers: number; days: number; heldBack: number };

/** One pass: at most `maxDays` seller-days, oldest watermarks first (or only the sellers named). */
export async function rollUpClosedDays(opts: { now?: Date; maxDays?: number; sellerIds?: string[] } = {}): Promise<RollupReport> {
  const now = opts.now ?? new Date();
  const last = lastClosedDay(now);
  let budget = opts.maxDays ?? 62;
  const report: RollupReport = { sellers: 0, days: 0, heldBack: 0 };
  const behind = (await findSellersBehind(last, opts.sellerIds ? 10_000 : 50)).filter((s) => !opts.sellerIds || opts.sellerIds.includes(s.sellerId));
  for (const s of behind) {
    if (budget <= 0) break;
    let through = s.rolledThrough;
    if (through === null) {
      const first = await findFirstActivityDay(s.sellerId);
      // Nothing yet: start at the last closed day; the seller's first day will be rolled when it closes.
      through = first && first <= last ? dayOf(Date.parse(`${first}T00:00:00.000Z`) - DAY_MS) : last;
      await startWatermark(s.sellerId, through);
    }
    report.sellers++;
    while (through < last && budget > 0) {
      const next = await findNextActivityDay(s.sellerId, through);
      // Days without a row roll up to nothing: move past them at once.
      const skipTo = next === null || next > last ? last : dayOf(Date.parse(`${next}T00:00:00.000Z`) - DAY_MS);
      if (skipTo > through) {
        if (!(await skipEmptyDays(s.sellerId, through, skipTo))) break;
        through = skipTo;
        if (through >= last) break;
      }
      const day = dayOf(Date.parse(`${through}T00:00:00.000Z`) + DAY_MS);
      if (await hasPaymentsInFlight(s.sellerId, day)) {
        report.heldBack++;
        break;
      }
      budget--;
      if (!(await rollUpDay(s.sellerId, day))) break;
      report.days++;
      through = day;
    }
  }
  return report;
}

let timer: NodeJS.Timeout | undefined;
/** Seller-days per pass: about a second of work at 10,000 payments a day. */
const PASS_DAYS = 31;

/** Start the periodic rollup (idempotent). Called from instrumentation.ts at server start. */
export function startAnalyticsRollups(intervalMs = 5 * 60_000): { stop: () => void } {
  if (!timer) {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        // Catching up (a first start over existing data): pass after pass until the budget is no longer used up.
        let days = 0;
        let r: RollupReport;
        let passes = 0;
        do {
          r = await rollUpClosedDays({ maxDays: PASS_DAYS });
          days += r.days;
        } while (r.days >= PASS_DAYS && ++passes < 100);
        if (days) console.info(`[analytics] rolled up ${days} closed day(s)${r.heldBack ? `, ${r.heldBack} held back` : ""}`);
      } catch (e) {
        console.error("[analytics] rollup pass failed:", e instanceof Error ? e.message : e);
      } finally {
        running = false;
      }
    };
    void tick();
    timer = setInterval(tick, intervalMs);
    timer.unref();
  }
  return {
    stop: () => {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
