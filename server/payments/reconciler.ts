// Finishes what a crashed or stopped instance left behind, so every verified payment ends settled or
// released, never both (and runs each rail's own periodic work, `rail.reconcile`: for card, open and expired
// checkouts, paid checkouts never retried, unconfirmed refunds):
//  - an outbox row still pending after its lease: settle it (settlePayment checks the chain first, so an
//    earlier broadcast is recorded, not repeated);
//  - a verified payment whose lease ran out with no outbox row (the instance died before the upstream
//    answered): release it, the caller is not charged;
//  - answers kept for re-delivery whose replay window is over: deleted (./delivered-answers).
// Runs at start-up and every SETTLEMENT_RECONCILE_INTERVAL_MS; safe on many instances at once (every step is
// state-guarded and leased).
import { env } from "../env";
import { startBackgroundLoop, type BackgroundLoop } from "../lib/background-loop";
import { deleteOldRateLimitWindows } from "../rate-limits/rate-limit.queries";
import { deleteIdleFailures, SIGN_IN_IDLE_SECONDS } from "../rate-limits/sign-in-limit";
import { observeReconcilerRun } from "../observability/metrics";
import { releaseLapsedBudgetHolds } from "../budgets/release-lapsed-budget-holds";
import { purgeExpiredAnswers } from "./delivered-answers/delivered-answers.queries";
import { claimSettlement, findAbandonedPayments, findDueSettlements } from "./settlements.queries";
import { RAILS, railFor } from "./rails";
import { settlePayment } from "./settle-payment";

/** settled..released: the shared outbox and abandoned holds; `rails`: each rail's own periodic work. */
export type ReconcileReport = {
  settled: number;
  failed: number;
  pending: number;
  released: number;
  /** Which payments this pass settled and released (one database holds every instance's work: counts are not "mine"). */
  settledIds: string[];
  releasedIds: string[];
  rails: Record<string, { settled?: number; released?: number; refunded?: number }>;
  /** Kept answers deleted this pass, their replay window over (./delivered-answers). */
  purgedAnswers?: number;
  /** Budget holds released this pass, their instance gone past the lease (server/budgets). */
  budgetHoldsReleased?: number;
};

export async function reconcileOnce(): Promise<ReconcileReport> {
  const report: ReconcileReport = { settled: 0, failed: 0, pending: 0, released: 0, settledIds: [], releasedIds: [], rails: {} };
  for (const p of await findAbandonedPayments(100)) {
    // The rail undoes its own hold (wallet rails: the state move; credits: the reservation back to the balance).
    if (await railFor(p.rail).release(p.id, "abandoned: the serving instance stopped before the upstream answered")) {
      report.released++;
      report.releasedIds.push(p.id);
    }
  }
  const lease = () => new Date(Date.now() + env().PAYMENT_LEASE_SECONDS * 1000);
  for (const id of await findDueSettlements(50)) {
    if (!(await claimSettlement(id, lease()))) continue;
    const r = await settlePayment(id);
    if (r.type === "settled") {
      report.settled++;
      report.settledIds.push(id);
    } else if (r.type === "failed") report.failed++;
    else if (r.type === "pending") report.pending++;
  }
  // Each rail's own periodic work (card: open checkouts, undelivered paid checkouts, unconfirmed refunds).
  for (const rail of RAILS) {
    if (!rail.reconcile) continue;
    try {
      report.rails[rail.name] = await rail.reconcile();
    } catch (e) {
      console.error(`[reconciler] ${rail.name}:`, e instanceof Error ? e.message : e);
    }
  }
  await deleteOldRateLimitWindows(new Date(Date.now() - 10 * 60_000));
  await deleteIdleFailures(SIGN_IN_IDLE_SECONDS);
  // Answers kept for re-delivery leave with their replay window, and give their bytes back to the seller's allowance.
  report.purgedAnswers = await purgeExpiredAnswers(1_000);
  report.budgetHoldsReleased = await releaseLapsedBudgetHolds();
  return report;
}

let loop: BackgroundLoop | undefined;

/** One pass of the periodic reconciler, its counts logged when it did anything. A failed pass waits for the next. */
async function reconcilePass(): Promise<void> {
  try {
    const r = await observeReconcilerRun(reconcileOnce);
    const rails = Object.entries(r.rails)
      .filter(([, c]) => Object.values(c).some(Boolean))
      .map(([name, c]) => ` ${name}=${JSON.stringify(c)}`)
      .join("");
    if (r.settled || r.failed || r.released || rails)
      console.info(`[reconciler] settled=${r.settled} failed=${r.failed} released=${r.released} pending=${r.pending}${rails}`);
  } catch (e) {
    console.error("[reconciler] pass failed:", e instanceof Error ? e.message : e);
  }
}

/**
 * Start the periodic reconciler (idempotent): a pass at once, then one every SETTLEMENT_RECONCILE_INTERVAL_MS after
 * the last ended (never two at once), on the background loop the other loops share. Called from instrumentation.ts.
 */
export function startSettlementReconciler(): BackgroundLoop {
  loop ??= startBackgroundLoop(reconcilePass, { firstMs: 0, nextMs: () => env().SETTLEMENT_RECONCILE_INTERVAL_MS });
  const started = loop;
  return {
    stop: async () => {
      if (loop === started) loop = undefined;
      await started.stop();
    },
  };
}
