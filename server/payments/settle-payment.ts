// Charges one payment from its outbox row through the rail that holds it (its `charge` capability), then records the
// result durably. The same for every rail: the outbox row is unique per payment and leased; the rail's settle is
// idempotent (wallet rails ask the chain before re-sending after a crash); success, failure and retry are each one
// guarded statement.
import { findSettlement, recordSettlementFailure, recordSettlementRetry, recordSettlementSuccess } from "./payments.queries";
import { railFor } from "./rails";
import type { HeldPayment, Rail, SettleOutcome } from "./rails/rail";

export type SettleResult =
  | { type: "settled"; transaction: string | null; payer: string | null }
  | { type: "failed"; reason: string }
  /** Not settled yet (transient); the reconciler retries. */
  | { type: "pending"; detail: string }
  /** Nothing to do: no outbox row, or another state already decided. */
  | { type: "noop"; status: string };

const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * Charge a held payment whose outbox row this caller owns. `then`: "consumed" when the paid response goes out with
 * this very call (the gateway), "settled" when nobody is waiting (the reconciler).
 */
export async function chargeHeldPayment(
  rail: Rail,
  payment: HeldPayment,
  opts: { retry: boolean; attempts: number; then: "settled" | "consumed" },
): Promise<SettleResult> {
  // Only a rail that charges writes outbox rows (captures and prepaid holds never do): anything else is a bug.
  if (!rail.charge) throw new Error(`rail ${rail.name} holds payment ${payment.id} in the outbox but cannot charge`);
  let outcome: SettleOutcome;
  try {
    outcome = await rail.charge.settle(payment, { retry: opts.retry });
  } catch (e) {
    outcome = { type: "pending", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
  }
  if (outcome.type === "settled") {
    await recordSettlementSuccess(payment.id, outcome.transaction, opts.then, outcome.cost);
    return { type: "settled", transaction: outcome.transaction, payer: outcome.payer ?? payment.payer };
  }
  if (outcome.type === "failed") {
    await recordSettlementFailure(payment.id, outcome.reason, outcome.transaction);
    return { type: "failed", reason: outcome.reason };
  }
  const backoff = Math.min(MAX_BACKOFF_MS, 2_000 * 2 ** Math.min(opts.attempts, 10));
  await recordSettlementRetry(payment.id, outcome.detail, new Date(Date.now() + backoff));
  return { type: "pending", detail: outcome.detail };
}

/** The reconciler's entry: settle a payment from its (claimed) outbox row, checking first what a crash left. */
export async function settlePayment(paymentId: string): Promise<SettleResult> {
  const s = await findSettlement(paymentId);
  if (!s) return { type: "noop", status: "no_settlement" };
  if (s.status === "succeeded") return { type: "settled", transaction: s.transaction, payer: s.payment.payer };
  if (s.status !== "pending") return { type: "noop", status: s.status };
  return chargeHeldPayment(railFor(s.payment.rail), s.payment, { retry: true, attempts: s.attempts, then: "settled" });
}
