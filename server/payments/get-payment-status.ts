// What statusUrl answers: the state of one payment of this seller (never its proof), and each rail's own block where
// it keeps one (`paymentStatus`, under the rail's name). For a payment that can be, or was, paid by card, the `card`
// block is what an agent polls: `status` incomplete -> complete (retry now with svc-payment-id), or expired / refunded /
// failed.
import { env } from "../env";
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import { isIdempotencyLock, paymentPhase } from "./payment-phase";
import { findPhaseExtras } from "./payment-phase.queries";
import { isPaid } from "./payment-state";
import { findPayment, findRefundEntries } from "./payments.queries";
import { refundFields } from "./refund-entries";
import { RAILS } from "./rails";

export async function getPaymentStatus(sellerId: string, paymentId: string, origin: string) {
  const p = await findPayment(sellerId, paymentId);
  if (!p) throw new AppError("payment_unknown", { detail: "no payment with this id at this seller" });
  // A refunded payment, in full or in part, says how the money came back: each ledger refund (the seller's on-chain
  // transfer, checked when recorded), and the card processor's side of the last (`card.refund`).
  // An unpaid challenge has no outbox row and bought nothing yet: its phase needs no second read.
  const [refunds, extras, blocks] = await Promise.all([
    p.refundedMicros > 0n ? findRefundEntries(p.id) : [],
    p.status === "challenged" ? { settlement: null, purchase: false } : findPhaseExtras(p.id),
    Promise.all(RAILS.flatMap((r) => (r.paymentStatus ? [r.paymentStatus(p, origin).then((block) => [r.name, block] as const)] : []))),
  ]);
  return {
    id: p.id,
    status: p.status,
    ...paymentPhase({ ...p, idempotencyKeyed: isIdempotencyLock(p.lockKey), ...extras }, Date.now(), env().PAYMENT_REPLAY_HOURS),
    // Complete = paid: the original request can be retried (card flow) or was already served (x402).
    complete: isPaid(p.status),
    rail: p.rail,
    amount: microsToUsd(p.amountMicros),
    currency: p.currency,
    method: p.method,
    path: p.path,
    query: p.query,
    operation: p.operationKey,
    meter: p.meterKey,
    payer: p.payer,
    transaction: p.transaction,
    reason: p.failureReason,
    expires_at: p.expiresAt.toISOString(),
    created_at: p.createdAt.toISOString(),
    settled_at: p.settledAt?.toISOString() ?? null,
    ...refundFields(p, refunds),
    ...Object.fromEntries(blocks),
  };
}
