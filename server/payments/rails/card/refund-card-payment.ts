// Card refunds: in full (SERVICE.md part 3: a failed delivery refunds the card in full automatically), or in part
// from the console, several up to the charge, like Stripe's. Each decision is one transaction (the payment's sum
// refunded and state, the ledger's refund row, the refund's outbox row, the audit row for a seller's refund); then the
// processor is asked, with an idempotency key derived from the payment id and the refund's number, so however many
// times it is asked (inline, by the reconciler after an outage, from a second instance) each refund is made once.
import { consoleRefundAmount, firstIssue, refundAmountMicros } from "../../../contracts/console";
import { AppError, invalidParameter } from "../../../errors";
import { formatUsd, microsToUsd, microsToWholeCents } from "../../../lib/money";
import { findPaymentWithCard } from "./card.queries";
import { findCardRefund, recordRefundResult, startCardRefund, type CardRefundRequest } from "./card-refunds.queries";
import { processorFor } from "./processor/get-card-processor";
import { processorReference } from "./processor/processor-reference";

/** The processor's idempotency key of a payment's refund number `seq` (the first keeps the key it always had). */
export function refundIdempotencyKey(paymentId: string, seq: number): string {
  return `${processorReference(paymentId)}:refund${seq === 0 ? "" : `:${seq}`}`;
}

/** Ask the processor for a decided refund and record its answer. Transient failures leave it pending for the reconciler. */
export async function sendCardRefund(paymentId: string, seq: number): Promise<"succeeded" | "pending" | "failed"> {
  const refund = await findCardRefund(paymentId, seq);
  if (!refund || refund.status !== "pending") return (refund?.status as "succeeded" | "failed" | undefined) ?? "failed";
  if (!refund.card.processorPaymentId) {
    await recordRefundResult(paymentId, seq, { status: "failed", refundId: null, error: "no processor payment to refund" });
    return "failed";
  }
  try {
    const r = await processorFor(refund.card.processor).refund({
      paymentId,
      paymentIntentId: refund.card.processorPaymentId,
      amountCents: microsToWholeCents(refund.amountMicros)!,
      reason: refund.cause,
      idempotencyKey: refundIdempotencyKey(paymentId, seq),
    });
    if (r.type === "failed") {
      console.error(`[card] refund ${seq} of ${paymentId} failed at the processor: ${r.detail}`);
      await recordRefundResult(paymentId, seq, { status: "failed", refundId: r.refundId, error: r.detail });
      return "failed";
    }
    await recordRefundResult(paymentId, seq, { status: r.status, refundId: r.refundId });
    return r.status;
  } catch (e) {
    if (!(e instanceof AppError && e.code === "payment_provider_unavailable")) throw e;
    // Decided and recorded; the reconciler asks again with the same idempotency key.
    return "pending";
  }
}

export type { CardRefundRequest };

/**
 * Refund a card payment, in full unless `amountMicros` says less. A failed delivery or an undelivered checkout refunds
 * a payment that was paid but not served (settled); a seller may also refund one that was served (consumed). False if
 * the payment was not in such a state, or has less left than asked (a racer delivered or refunded it first).
 */
export async function refundCardPayment(r: CardRefundRequest): Promise<boolean> {
  const started = await startCardRefund(r);
  if (started.type !== "started") return false;
  await sendCardRefund(r.paymentId, started.seq);
  return true;
}

export type SellerCardRefund = {
  paymentId: string;
  /** refunded: nothing is left; partially_refunded: some of the payment is left to refund. */
  status: "refunded" | "partially_refunded";
  /** This refund's amount (a repeat: the first result's). */
  amountUsd: string;
  /** All refunded so far, and what is left. */
  refundedUsd: string;
  remainingUsd: string;
  refundStatus: string;
  refundId: string | null;
  /** True when this request was already made (a double click, a retried request): the first result. */
  alreadyRefunded: boolean;
};

function notRefundable(p: { id: string; status: string }, why: string): AppError {
  return new AppError("payment_not_refundable", { detail: `payment ${p.id} is ${p.status}: ${why}`, extra: { payment_id: p.id, status: p.status } });
}

/** The amount the seller typed, checked with the console's rule against what is left (micro-USD), or all that is left. */
function amountToRefund(amount: string | undefined, remaining: bigint): bigint {
  if (amount === undefined) return remaining;
  const checked = consoleRefundAmount(remaining).safeParse(amount);
  if (!checked.success) throw invalidParameter("amount", firstIssue(checked)!);
  return refundAmountMicros(checked.data)!;
}

/**
 * The console's refund of a card payment, in full or in part (`amount`, dollars and cents): idempotent per `requestKey`
 * (one submit of the dialog), audited, ledgered. Without an amount it refunds all that is left, and a repeat once
 * nothing is left returns the payment as it is.
 */
export async function refundCardPaymentForSeller(input: {
  sellerId: string;
  actorId: string | null;
  paymentId: string;
  reason?: string;
  amount?: string;
  requestKey?: string;
}): Promise<SellerCardRefund> {
  const before = await findPaymentWithCard(input.sellerId, input.paymentId);
  // Another seller's payment is indistinguishable from a missing one.
  if (!before) throw new AppError("not_found", { detail: "no such payment" });
  if (before.rail !== "card" || !before.card)
    throw new AppError("invalid_request", {
      detail: `payment ${before.id} was paid with ${before.rail ?? "nothing yet"}, not by card; wallet payments are refunded on chain (Record refund)`,
    });
  const result = async (seq: number | null, already: boolean): Promise<SellerCardRefund> => {
    const p = (await findPaymentWithCard(input.sellerId, input.paymentId))!;
    const refund = seq === null ? null : await findCardRefund(p.id, seq);
    return {
      paymentId: p.id,
      status: p.status === "refunded" ? "refunded" : "partially_refunded",
      amountUsd: microsToUsd(refund?.amountMicros ?? p.refundedMicros),
      refundedUsd: microsToUsd(p.refundedMicros),
      remainingUsd: microsToUsd(p.amountMicros - p.refundedMicros),
      refundStatus: refund?.status ?? p.card?.refundStatus ?? "pending",
      refundId: refund ? refund.processorRefundId : (p.card?.refundId ?? null),
      alreadyRefunded: already,
    };
  };
  if (before.status === "refunded" && input.amount === undefined) return result(null, true);
  if (before.status !== "settled" && before.status !== "consumed" && before.status !== "refunded")
    throw notRefundable(before, "only a paid card payment (settled or consumed) can be refunded");
  const remaining = before.amountMicros - before.refundedMicros;
  const amountMicros = amountToRefund(input.amount, remaining);
  const started = await startCardRefund({
    paymentId: before.id,
    sellerId: input.sellerId,
    cause: "seller",
    reason: "refunded by the seller",
    amountMicros,
    requestKey: input.requestKey,
    actorId: input.actorId,
    sellerReason: input.reason,
  });
  if (started.type === "duplicate") return result(started.seq, true);
  if (started.type === "started") {
    await sendCardRefund(before.id, started.seq);
    return result(started.seq, false);
  }
  const after = (await findPaymentWithCard(input.sellerId, input.paymentId))!;
  // A racer refunded all of it first (a double click on "refund in full"): the payment as it is now.
  if (after.status === "refunded" && input.amount === undefined) return result(null, true);
  throw notRefundable(
    after,
    `${formatUsd(after.amountMicros - after.refundedMicros)} is left to refund, less than this refund; its refunds changed while this one was being recorded`,
  );
}
