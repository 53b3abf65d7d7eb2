// Card refunds, always in full (SERVICE.md part 3: a failed delivery refunds the card in full automatically). The
// decision is one transaction (payment -> refunded, the ledger's refund row, the refund outbox row, the audit row for a
// seller's refund); then the processor is asked, with an idempotency key derived from the payment id, so however many
// times it is asked (inline, by the reconciler after an outage, from a second instance) one refund is made.
import { AppError } from "../../../errors";
import { microsToUsd, microsToWholeCents } from "../../../lib/money";
import { findPaymentWithCard, findPaymentWithCardById } from "./card.queries";
import { recordRefundResult, startCardRefund, type RefundCause } from "./card-refunds.queries";
import { processorFor } from "./processor/get-card-processor";
import { processorReference } from "./processor/processor-reference";
import type { RefundRequest } from "../rail";

/** Ask the processor for a decided refund and record its answer. Transient failures leave it pending for the reconciler. */
export async function sendCardRefund(paymentId: string): Promise<"succeeded" | "pending" | "failed"> {
  const p = await findPaymentWithCardById(paymentId);
  const card = p?.card;
  if (!p || !card || card.refundStatus !== "pending") return (card?.refundStatus as "succeeded" | "failed" | undefined) ?? "failed";
  if (!card.processorPaymentId) {
    await recordRefundResult(p.id, { status: "failed", refundId: null, error: "no processor payment to refund" });
    return "failed";
  }
  try {
    const r = await processorFor(card.processor).refund({
      paymentId: p.id,
      paymentIntentId: card.processorPaymentId,
      amountCents: microsToWholeCents(p.amountMicros)!,
      reason: card.refundCause ?? "requested_by_customer",
      idempotencyKey: `${processorReference(p.id)}:refund`,
    });
    if (r.type === "failed") {
      console.error(`[card] refund of ${p.id} failed at the processor: ${r.detail}`);
      await recordRefundResult(p.id, { status: "failed", refundId: r.refundId, error: r.detail });
      return "failed";
    }
    await recordRefundResult(p.id, { status: r.status, refundId: r.refundId });
    return r.status;
  } catch (e) {
    if (!(e instanceof AppError && e.code === "payment_provider_unavailable")) throw e;
    // Decided and recorded; the reconciler asks again with the same idempotency key.
    return "pending";
  }
}

export type CardRefundRequest = {
  paymentId: string;
  sellerId: string;
  cause: RefundCause;
  reason: string;
  lease?: string;
  requireUnleased?: boolean;
  actorId?: string | null;
  sellerReason?: string;
  upstreamStatus?: number;
};

/**
 * Refund a card payment in full. A failed delivery or an undelivered checkout refunds a payment that was paid but not
 * served (settled); a seller may also refund one that was served (consumed). False if the payment was not in such a
 * state (a racer delivered or refunded it first).
 */
export async function refundCardPayment(r: CardRefundRequest): Promise<boolean> {
  const started = await startCardRefund(r);
  if (started.type === "not_refundable") return false;
  await sendCardRefund(r.paymentId);
  return true;
}

export type SellerCardRefund = {
  paymentId: string;
  status: "refunded";
  amountUsd: string;
  refundStatus: string;
  refundId: string | null;
  /** True when this payment was already refunded (a double click, a retried request): the first result. */
  alreadyRefunded: boolean;
};

/** The console's one-click refund of a card payment (the rails' one RefundRequest; a card needs no transaction): idempotent, audited, ledgered. */
export async function refundCardPaymentForSeller(input: RefundRequest): Promise<SellerCardRefund> {
  const before = await findPaymentWithCard(input.sellerId, input.paymentId);
  // Another seller's payment is indistinguishable from a missing one.
  if (!before) throw new AppError("not_found", { detail: "no such payment" });
  if (before.rail !== "card" || !before.card)
    throw new AppError("invalid_request", {
      detail: `payment ${before.id} was paid with ${before.rail ?? "nothing yet"}, not by card; wallet payments are refunded on chain (Record refund)`,
    });
  const result = (p: NonNullable<typeof before>, already: boolean): SellerCardRefund => ({
    paymentId: p.id,
    status: "refunded",
    amountUsd: microsToUsd(p.amountMicros),
    refundStatus: p.card?.refundStatus ?? "pending",
    refundId: p.card?.refundId ?? null,
    alreadyRefunded: already,
  });
  if (before.status === "refunded") return result(before, true);
  if (before.status !== "settled" && before.status !== "consumed")
    throw new AppError("payment_not_refundable", {
      detail: `payment ${before.id} is ${before.status}: only a paid card payment (settled or consumed) can be refunded`,
      extra: { payment_id: before.id, status: before.status },
    });
  const done = await refundCardPayment({
    paymentId: before.id,
    sellerId: input.sellerId,
    cause: "seller",
    reason: "refunded by the seller",
    actorId: input.actorId,
    sellerReason: input.reason,
  });
  const after = (await findPaymentWithCard(input.sellerId, input.paymentId))!;
  if (!done && after.status !== "refunded")
    throw new AppError("payment_not_refundable", {
      detail: `payment ${after.id} is ${after.status}: its state changed while the refund was being recorded; try again`,
      extra: { payment_id: after.id, status: after.status },
    });
  return result(after, !done);
}
