// One paid call through whichever rail carried the proof: accept (verify + lock) -> proxy -> decide -> charge.
// Pay only for success: only an upstream 2xx or 3xx is charged. A 4xx (`unknown_ticker`, `not_included`: the caller
// got no data), a 5xx, a timeout, an unreachable upstream or usage that cannot be billed releases the hold and charges
// nothing, as x402's reference middleware does not settle a handler's 400 or above. The decision to charge is written
// to the outbox before the rail is asked to charge, so a crash at any point ends settled once or released, never both
// (the reconciler finishes it). The proof that already paid for this very request is served the answer it paid for
// again, kept when it was delivered, never charged again and never run again (replayPaidCall). Every charged or re-delivered answer carries a signed receipt over its body (`signed`).
// A prepaid hold (a card checkout a human paid before this call) has nothing to charge: success marks it delivered
// under its lease, and every failure above refunds it in full instead of releasing it.
import type { CatalogMeter } from "../catalog/catalog";
import { env } from "../env";
import { AppError } from "../errors";
import type { PaidCall } from "../payments/paid-call";
import type { PaymentRow } from "../payments/payments.queries";
import type { HeldPayment, Hold, Rail } from "../payments/rails/rail";
import { receiptHeaders } from "../receipts/receipt-headers";
import { signReceipt } from "../receipts/sign-receipt";
import { chargeServedPayment, scheduleCharge } from "../payments/settle-payment";
import { awaitDelivery, markDeliveryInFlight } from "../payments/delivered-answers/await-delivery";
import { findKeptAnswer } from "../payments/delivered-answers/find-kept-answer";
import { keepAnswer, type AnswerSent } from "../payments/delivered-answers/keep-answer";
import { countPendingChargeAsDelivered } from "../payments/exposure.queries";
import { DEFAULT_SELLER_UNSETTLED_CAP_MICROS, DEFAULT_UNSETTLED_CAP_MICROS } from "../settings/unsettled-cap";

const EXPOSURE_DEFAULTS = { payerCapMicros: DEFAULT_UNSETTLED_CAP_MICROS, sellerCapMicros: DEFAULT_SELLER_UNSETTLED_CAP_MICROS };
import type { Delivered, ServedOutcome } from "./paid-outcome";
import type { UpstreamResult } from "./proxy-upstream";
import { parseUsageHeader } from "./usage-header";

/** What came of a proof: served (ServedOutcome), or, short of a hold, refused, or declined by an implicit rail that covers nothing here (the 402 follows). */
export type ProofOutcome =
  ServedOutcome | { type: "refused"; rail: Rail; error: AppError; freshChallenge?: boolean } | { type: "declined"; error?: "usage_exhausted"; detail?: string };

export type Timings = { lap(name: string): void };

/** Crash-recovery tests only: die exactly here, with the state so far durably recorded. */
function faultPoint(point: "exit_after_lock" | "exit_after_outbox"): void {
  const e = env();
  if (e.NODE_ENV === "test" && e.GATEWAY_FAULT === point) process.exit(86);
}

/** What a paid call buys: the upstream's answer (a data call), or what the purchase delivers, and the meters to bill. */
export type Delivery = { deliver: () => Promise<UpstreamResult>; meters: CatalogMeter[] };

/** Requests whose upstream call may start before their payment is accepted: reads (RFC 9110's safe methods). */
const SAFE_METHODS = new Set(["GET", "HEAD"]);

export async function servePaidCall(
  call: PaidCall,
  rail: Rail,
  proof: unknown,
  delivery: Delivery,
  timings: Timings,
  opts: { replayOnly?: AppError } = {},
): Promise<ProofOutcome> {
  // A read paid by a proof that has lately been paying (prepaid credit that covered the last calls) starts its upstream
  // while the rail reserves: the call then waits for the slower of the two, not both. The answer still goes out only
  // if the reservation holds; otherwise it is dropped unserved, and the refusal is the same as without the early start.
  // It starts on the next turn of the event loop, once the acceptance's statement is on its way: an upstream served in
  // this process (CPU work on this thread) then runs while the database answers, instead of holding up the statement.
  const early =
    call.purpose === "call" && SAFE_METHODS.has(call.method) && rail.deliverWhileAccepting?.(call, proof)
      ? new Promise<void>((r) => setImmediate(r)).then(delivery.deliver)
      : null;
  early?.catch(() => {});
  let accepted = await rail.accept(call, proof);
  timings.lap("accept");
  // A copy of a proof another request is serving right now waits for it (bounded), then asks again: the payment is then
  // charged (a replay of the kept answer), or ended, or still busy (payment_in_progress, as before). 200 copies of one
  // proof in flight run the upstream once (../payments/delivered-answers/await-delivery.ts).
  const busy = accepted.type === "refused" && accepted.error.code === "payment_in_progress" ? accepted.error.extra?.payment_id : undefined;
  if (typeof busy === "string" && (await awaitDelivery(busy))) {
    accepted = await rail.accept(call, proof);
    timings.lap("wait");
  }
  if (accepted.type === "refused") return { type: "refused", rail, error: accepted.error, freshChallenge: accepted.freshChallenge };
  if (accepted.type === "declined") return { type: "declined", error: accepted.error, detail: accepted.detail };
  // An early start was for a new reservation; a replay is answered from what was kept, never the upstream.
  if (accepted.type === "replay") return replayPaidCall(call, rail, accepted.payment);
  const { hold } = accepted;
  if (opts.replayOnly) {
    // Admitted only as the replay of a call its person approved (server/approvals): a new hold of it is not approved.
    if (hold.prepaid && rail.prepaid) await rail.prepaid.refund(hold, "approval_required");
    else await rail.release(hold.payment.id, "approval_required");
    return { type: "refused", rail, error: opts.replayOnly };
  }
  const done = markDeliveryInFlight(hold.payment.id);
  try {
    return await serveHeld(call, rail, hold, early, delivery, timings);
  } finally {
    done();
  }
}

async function serveHeld(
  call: PaidCall,
  rail: Rail,
  hold: Hold,
  early: Promise<UpstreamResult> | null,
  delivery: Delivery,
  timings: Timings,
): Promise<ProofOutcome> {
  faultPoint("exit_after_lock");
  // Undo the hold: release it (nothing moved), or refund a prepaid one in full. True when refunded.
  const undo = async (reason: string, upstreamStatus?: number): Promise<boolean> => {
    if (hold.prepaid && rail.prepaid) return rail.prepaid.refund(hold, reason, upstreamStatus);
    await rail.release(hold.payment.id, reason, upstreamStatus);
    return false;
  };

  const delivered = await (early ?? delivery.deliver());
  timings.lap("upstream");
  if (delivered.type !== "response") {
    const reason = delivered.type === "timeout" ? "upstream_timeout" : "upstream_unreachable";
    const refunded = await undo(reason);
    return { type: "released", call, rail, hold, delivered: null, reason, refunded };
  }
  if (delivered.status >= 400) {
    // The caller still gets the upstream's status and body (SERVICE.md part 1), uncharged.
    const reason = delivered.status >= 500 ? "upstream_error" : "upstream_rejected";
    const refunded = await undo(reason, delivered.status);
    return { type: "released", call, rail, hold, delivered, reason, refunded };
  }
  const meterKey = call.meterKey;
  const usage = parseUsageHeader(delivered.usageHeader, delivery.meters, meterKey);
  if (usage.type === "error") {
    const refunded = await undo(usage.code, delivered.status);
    return { type: "released", call, rail, hold, delivered, reason: "usage_error", usageError: usage.code, refunded };
  }
  const units = meterKey ? (usage.units.get(meterKey) ?? 1) : 1;
  // The answer this payment buys is kept before the charge is decided, so a charged payment's replay is served these
  // bytes, never a second run of the upstream (a purchase's replay answers its grant instead).
  const keeping =
    call.purpose === "call" && hold.replayable !== false ? keepAnswer({ paymentId: hold.payment.id, sellerId: call.sellerId }, sent(delivered)) : null;
  if (rail.capture) {
    await keeping;
    // Reserved before the call; charged off the response path (the reconciler releases it if that never lands). The
    // capture's statement keeps the receipt, so it is signed first.
    const jws = await signJws(call, rail, hold.payment, delivered, null, false);
    const railReceipt = rail.capture(hold, { units, upstreamStatus: delivered.status, receipt: jws });
    timings.lap("capture");
    const receipt = receiptHeaders(railReceipt ?? rail.charge?.receipt?.(hold, null), jws);
    return { type: "charged", call, rail, hold, delivered, transaction: null, units, receipt };
  }
  if (hold.prepaid && rail.prepaid) {
    // Paid before the call: going out now, under the lease. A lost lease means another request took the delivery
    // over (this one outlived its lease); it must not also serve. The receipt is signed first, so the delivery's
    // statement keeps it.
    const reference = hold.prepaid.reference;
    const [jws] = await Promise.all([signJws(call, rail, hold.payment, delivered, reference, false), keeping]);
    if (!(await rail.prepaid.delivered(hold, jws)))
      return {
        type: "refused",
        rail,
        freshChallenge: false,
        error: new AppError("payment_in_progress", { detail: "this payment is being delivered to another request", extra: { payment_id: hold.payment.id } }),
      };
    timings.lap("deliver");
    const receipt = receiptHeaders(rail.charge?.receipt?.(hold, reference), jws);
    return { type: "charged", call, rail, hold, delivered, transaction: reference, units, receipt };
  }
  // Whether the answer waits for the charge's inclusion is settlement's decision (settle-payment.ts), made with the outbox row.
  const [scheduled] = await Promise.all([scheduleCharge(rail, hold.payment, delivered.status, units, env().PAYMENT_LEASE_SECONDS, call.purpose), keeping]);
  if (!scheduled) return { type: "released", call, rail, hold, delivered, reason: "released_meanwhile" };
  faultPoint("exit_after_outbox");
  timings.lap("schedule");

  // The receipt is signed over the final settlement reference once the rail has charged, and kept by the charge
  // statement itself (settle-payment.ts): no statement of its own.
  const sign = (transaction: string | null) => signJws(call, rail, hold.payment, delivered, transaction, false);
  const settled = await chargeServedPayment(rail, hold.payment, scheduled, sign);
  timings.lap("settle");
  // Signed and on its way, delivered before inclusion: the receipt says so in the rail's own words.
  if (settled.type === "submitted")
    return {
      type: "settlement_pending",
      call,
      rail,
      hold,
      delivered,
      units,
      transaction: settled.transaction,
      receipt: receiptHeaders(rail.charge?.receipt?.(hold, settled.transaction, true), settled.receipt ?? (await sign(settled.transaction))),
    };
  if (settled.type === "failed") return { type: "settlement_failed", call, rail, hold, reason: settled.reason };
  if (settled.type !== "settled") {
    // The charge did not confirm in time; the outbox row stays pending and the reconciler finishes it. Answering now is
    // answering before inclusion, so it counts against the same caps (per wallet, across wallets); past them the answer
    // waits: kept, and served to a retry of this proof once the charge lands (never charged twice).
    if (settled.type === "pending" && hold.payment.payer && !(await countPendingChargeAsDelivered(hold.payment.id, EXPOSURE_DEFAULTS)))
      return {
        type: "refused",
        rail,
        freshChallenge: false,
        error: new AppError("payment_provider_unavailable", {
          detail: "the payment is being settled and its answer waits for that; retry this same request with the same proof shortly (it is never charged twice)",
          extra: { payment_id: hold.payment.id },
        }),
      };
    return { type: "settlement_pending", call, rail, hold, delivered, units };
  }
  return {
    type: "charged",
    call,
    rail,
    hold,
    delivered,
    transaction: settled.transaction,
    units,
    // settled.receipt is null only when the charge statement could not get it signed: sign here (and let a failure fail the answer, as before).
    receipt: receiptHeaders(rail.charge?.receipt?.(hold, settled.transaction), settled.receipt ?? (await sign(settled.transaction))),
  };
}

/** `svc-receipt`: a JWS over the payment, the request and the SHA-256 of the body as it is sent (../receipts). */
function signJws(call: PaidCall, rail: Rail, payment: HeldPayment, delivered: Delivered, settlement: string | null, replay: boolean): Promise<string> {
  return signReceipt({
    paymentId: payment.id,
    rail: rail.name,
    amountMicros: payment.amountMicros,
    currency: "USD",
    payer: payment.payer,
    sellerId: call.sellerId,
    request: { method: call.method, path: call.path, query: call.canonicalQuery },
    upstreamStatus: delivered.status,
    // The text an answer is known as hashes as its bytes do, without encoding them here.
    body: delivered.status === 204 || delivered.status === 304 ? null : (delivered.text ?? delivered.body),
    settlement,
    replay,
  });
}

/** What render-outcome sends: no body on 204 and 304. */
function sent(delivered: Delivered): AnswerSent {
  return { status: delivered.status, headers: delivered.headers, body: delivered.status === 204 || delivered.status === 304 ? null : delivered.body };
}

const NOT_KEPT: Record<string, string> = {
  too_large: "its answer was larger than this storefront keeps for re-delivery (DELIVERED_ANSWER_MAX_BYTES)",
  seller_full: "this storefront's room for answers kept for re-delivery was full when it was delivered",
  expired: "its answer is no longer kept (PAYMENT_REPLAY_HOURS passed)",
  not_recorded: "no answer was kept for it",
};

/**
 * Resumable delivery (../payments/replay.ts): the proof that paid for this request, retried. It is served the answer
 * that was paid for, kept when it was delivered (../payments/delivered-answers): the same status, headers and bytes,
 * with the receipt the charge kept (it verifies against these very bytes). Never the upstream again, and nothing is
 * charged, released or refunded. An answer that was not kept (too large, the seller's room full) is refused as such:
 * `payment_consumed`, reason `answer_not_kept`. A purchase stays `payment_consumed` here (its own entry point answers
 * its grant).
 */
async function replayPaidCall(call: PaidCall, rail: Rail, payment: PaymentRow): Promise<ProofOutcome> {
  const extra = { payment_id: payment.id };
  const refuse = (error: AppError): ProofOutcome => ({ type: "refused", rail, freshChallenge: false, error });
  if (call.purpose !== "call")
    return refuse(new AppError("payment_consumed", { detail: "this payment already bought its purchase; make a fresh unpaid request and pay its 402", extra }));
  const kept = await findKeptAnswer(payment.id);
  if (kept.type === "not_kept")
    return refuse(
      new AppError("payment_consumed", {
        reason: "answer_not_kept",
        detail: `this payment bought one answer, delivered before, and it cannot be delivered again: ${NOT_KEPT[kept.reason]}; make a fresh unpaid request and pay its 402`,
        extra: { ...extra, not_kept: kept.reason },
      }),
    );
  const body = kept.body ?? new Uint8Array();
  const delivered: Delivered = {
    type: "response",
    status: kept.status,
    headers: new Headers(kept.headers),
    body: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
    usageHeader: null,
    ms: 0,
  };
  const hold: Hold = { rail: rail.name, payment };
  const transaction = payment.transaction;
  // The charge's own receipt: signed over these bytes. Only if its signing had failed is one signed now, saying replay.
  const receipt = receiptHeaders(rail.charge?.receipt?.(hold, transaction), kept.receipt ?? (await signJws(call, rail, payment, delivered, transaction, true)));
  return {
    type: "charged",
    call,
    rail,
    hold,
    delivered,
    transaction,
    units: 0,
    receipt,
    replay: { chargedAt: payment.settledAt ?? payment.verifiedAt ?? payment.createdAt },
  };
}
