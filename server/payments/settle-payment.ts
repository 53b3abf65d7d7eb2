// Charges one payment from its outbox row through the rail that holds it (its `charge` capability), then records the
// result durably. The same for every rail: the outbox row is unique per payment and leased; the rail's settle is
// idempotent (wallet rails ask the chain before re-sending after a crash); success, failure and retry are each one
// guarded statement.
//
// Delivery before inclusion: on a chain that takes its time to include a transaction (Base: a block every 2 s), a paid
// call need not wait for it. Once the proof was verified against the chain (a simulation of the very transfer), locked,
// the upstream answered and the outbox row is written, the answer may go out as soon as the transfer is signed; the
// transfer then lands in the background, and the reconciler finishes what a crash leaves. The seller's risk is the
// value so delivered and not yet settled, per payer wallet and across all of the seller's wallets, capped
// (server/settings/unsettled-cap.ts) in the statement that writes the outbox row; beyond the cap, and for a wallet whose settlement once failed after delivery (an unpaid
// delivery, shown in the console), calls wait for inclusion as before. Where the chain includes within a few
// milliseconds (a local chain mining each transaction), waiting costs nothing and gives the agent a final receipt, so
// calls wait there too: which kind of chain this is, the gateway learns from its own recent settlements.
import { env } from "../env";
import { DEFAULT_SELLER_UNSETTLED_CAP_MICROS, DEFAULT_UNSETTLED_CAP_MICROS } from "../settings/unsettled-cap";
import { recordReceipt, scheduleSettlementDeliveringFirst } from "./payments.queries";
import { findSettlement, recordSettlementFailure, recordSettlementRetry, recordSettlementSuccess } from "./settlements.queries";
import { railFor } from "./rails";
import type { HeldPayment, Rail, SettleOutcome } from "./rails/rail";

export type SettleResult =
  /** `receipt`: the signed receipt the charge statement kept, when the caller gave a signer (null: it could not sign). */
  | { type: "settled"; transaction: string | null; payer: string | null; receipt?: string | null }
  | { type: "failed"; reason: string }
  /** Not settled yet (transient); the reconciler retries. */
  | { type: "pending"; detail: string }
  /** Nothing to do: no outbox row, or another state already decided. */
  | { type: "noop"; status: string };

const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * Inclusion faster than this (the median of the last few settlements, from signed to included): the answer waits for
 * it. A local chain mining each transaction includes in a few ms; Base in about a second on average.
 */
const WAIT_FOR_INCLUSION_UNDER_MS = 100;
const recentInclusionMs: number[] = [];

function noteInclusion(ms: number): void {
  recentInclusionMs.push(ms);
  if (recentInclusionMs.length > 8) recentInclusionMs.shift();
}

/** Whether inclusion on this chain is slow enough to deliver first; unknown (no settlement yet) waits. */
function inclusionIsSlow(): boolean {
  if (env().DELIVER_BEFORE_INCLUSION === "off") return false;
  if (recentInclusionMs.length === 0) return false;
  const sorted = [...recentInclusionMs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]! >= WAIT_FOR_INCLUSION_UNDER_MS;
}

/** Tests only: as if the last settlements took `ms` each to be included (null: none seen yet). */
export function setInclusionEstimateForTests(ms: number | null): void {
  recentInclusionMs.length = 0;
  if (ms !== null) noteInclusion(ms);
}

/**
 * Signs the receipt of the answer a charge goes out with, given the settlement reference (../receipts): asked once the
 * rail has charged, so the charge statement keeps it. Null (the signing failed): the charge is recorded without it.
 */
export type ReceiptSigner = (transaction: string | null) => Promise<string | null>;

async function signOrNull(sign: ReceiptSigner, transaction: string | null, paymentId: string): Promise<string | null> {
  try {
    return await sign(transaction);
  } catch (e) {
    // The money moved: recording the charge must not wait on, or fail with, the receipt.
    console.error(`[receipts] could not sign ${paymentId}'s receipt:`, e instanceof Error ? e.message : e);
    return null;
  }
}

/**
 * Charge a held payment whose outbox row this caller owns. `then`: "consumed" when the paid response goes out with
 * this very call (the gateway), "settled" when nobody is waiting (the reconciler). `receipt`: the answer's receipt,
 * signed over the final settlement reference and written by the charge statement itself.
 */
export async function chargeHeldPayment(
  rail: Rail,
  payment: HeldPayment,
  opts: { retry: boolean; attempts: number; then: "settled" | "consumed"; onSubmitted?: (transaction: string | null) => void; receipt?: ReceiptSigner },
): Promise<SettleResult> {
  // Only a rail that charges writes outbox rows (captures and prepaid holds never do): anything else is a bug.
  if (!rail.charge) throw new Error(`rail ${rail.name} holds payment ${payment.id} in the outbox but cannot charge`);
  let outcome: SettleOutcome;
  let submittedAt = performance.now();
  const onSubmitted = (transaction: string | null) => {
    submittedAt = performance.now();
    opts.onSubmitted?.(transaction);
  };
  try {
    outcome = await rail.charge.settle(payment, { retry: opts.retry, onSubmitted });
  } catch (e) {
    outcome = { type: "pending", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
  }
  if (outcome.type === "settled") {
    noteInclusion(performance.now() - submittedAt);
    const receipt = opts.receipt ? await signOrNull(opts.receipt, outcome.transaction, payment.id) : null;
    await recordSettlementSuccess(payment.id, outcome.transaction, opts.then, outcome.cost, receipt);
    return { type: "settled", transaction: outcome.transaction, payer: outcome.payer ?? payment.payer, ...(opts.receipt ? { receipt } : {}) };
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
  // An answer that went out before inclusion was delivered: the charge ends it consumed, as it would have inline.
  return chargeHeldPayment(railFor(s.payment.rail), s.payment, { retry: true, attempts: s.attempts, then: s.deliveredFirst ? "consumed" : "settled" });
}

/**
 * The decision to charge a served call, made durable (the outbox row), with whether its answer may go out before the
 * settlement is included (see the top of this file). Null when the payment is no longer verified.
 */
export async function scheduleCharge(
  rail: Rail,
  payment: HeldPayment,
  upstreamStatus: number,
  units: number,
  leaseSeconds: number,
  purpose: "call" | "purchase" = "call",
): Promise<{ deliveredFirst: boolean } | null> {
  // A purchase waits: its credit is granted by the statement that records the charge, so answering first would answer
  // a purchase with no credit yet.
  const deliverFirst =
    purpose === "call" && rail.charge?.deliversFirst && payment.payer && inclusionIsSlow()
      ? { defaultCapMicros: DEFAULT_UNSETTLED_CAP_MICROS, defaultSellerCapMicros: DEFAULT_SELLER_UNSETTLED_CAP_MICROS }
      : null;
  return scheduleSettlementDeliveringFirst(payment.id, upstreamStatus, units, leaseSeconds, deliverFirst);
}

/**
 * The transaction was signed and sent (its hash, when the facilitator knows it before inclusion); it lands later.
 * `receipt`: the answer's receipt, over that hash (null: it could not sign; absent: no signer was given).
 */
export type SubmittedResult = { type: "submitted"; transaction: string | null; receipt?: string | null };

/**
 * Charge a served call whose outbox row it just wrote: inline (the answer waits for inclusion), or, when it may be
 * delivered first, in the background, answering as soon as the transfer is signed. A background charge that fails
 * is recorded as an unpaid delivery by recordSettlementFailure; one that stays pending is the reconciler's.
 * `receipt` signs the answer's receipt; the charge statement keeps it. An answer delivered first carries the receipt
 * over the hash it was sent with, and that same receipt is the one kept: by the background charge's statement when it
 * lands, or, when the charge ends any other way (pending for the reconciler, failed: an unpaid delivery), on its own.
 */
export async function chargeServedPayment(
  rail: Rail,
  payment: HeldPayment,
  scheduled: { deliveredFirst: boolean },
  receipt?: ReceiptSigner,
): Promise<SettleResult | SubmittedResult> {
  if (!scheduled.deliveredFirst) return chargeHeldPayment(rail, payment, { retry: false, attempts: 1, then: "consumed", receipt });
  let signed!: (transaction: string | null) => void;
  const submitted = new Promise<string | null>((resolve) => (signed = resolve));
  let sent: Promise<string | null> | null = null;
  const onSubmitted = (tx: string | null) => {
    sent = receipt ? signOrNull(receipt, tx, payment.id) : null;
    signed(tx);
  };
  const charging = chargeHeldPayment(rail, payment, {
    retry: false,
    attempts: 1,
    then: "consumed",
    onSubmitted,
    ...(receipt ? { receipt: (tx: string | null) => sent ?? signOrNull(receipt, tx, payment.id) } : {}),
  });
  charging
    .then(async (result) => {
      const jws = await sent;
      if (result.type !== "settled" && jws) await recordReceipt(payment.id, jws);
    })
    .catch((e) => console.error(`[settlement] ${payment.id}: background charge failed to record:`, e instanceof Error ? e.message : e));
  const first = await Promise.race([
    submitted.then((transaction) => ({ transaction })),
    charging.then(
      (result) => ({ result }),
      () => ({ transaction: null }),
    ),
  ]);
  if ("result" in first) return first.result;
  return { type: "submitted", transaction: first.transaction, ...(receipt ? { receipt: await (sent ?? Promise.resolve(null)) } : {}) };
}
