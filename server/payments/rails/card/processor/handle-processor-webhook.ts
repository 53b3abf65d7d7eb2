// POST /webhooks/stripe: the processor tells us a checkout was paid or expired, an attempt failed, or a refund moved.
// The signature is checked over the raw body first (a bad one is a 400 and changes nothing). An event already
// handled is acknowledged and ignored. The checkout itself is then read back from the processor rather than trusted
// as sent, and applied with the same state-guarded writes as the page and the reconciler, so events may arrive
// late, twice or out of order. The event id is recorded after its effect: a crash in between only means the
// processor's redelivery applies it again, which changes nothing.
import { AppError } from "../../../../errors";
import { findPaymentWithCardByReference, recordAttemptFailed } from "../card.queries";
import { findRefundSeq, recordRefundResult } from "../card-refunds.queries";
import { processorEventSeen, recordProcessorEvent } from "./processor-events.queries";
import { syncCheckout } from "../checkout/apply-card-outcome";
import { cardProcessor } from "./get-card-processor";

export type WebhookResult = { received: true; duplicate: boolean; type: string };

export async function handleProcessorWebhook(rawBody: string, signature: string | null): Promise<WebhookResult> {
  const processor = cardProcessor();
  if (!processor.parseWebhook) throw new AppError("not_found", { detail: "no card processor webhooks are configured here (STRIPE_SECRET_KEY is not set)" });
  const event = processor.parseWebhook(rawBody, signature);
  if (await processorEventSeen(event.id)) return { received: true, duplicate: true, type: event.type };

  const p = event.paymentId ? await findPaymentWithCardByReference(event.paymentId) : null;
  // Not one of ours (another integration on the same Stripe account): acknowledged, nothing to do.
  if (p?.card && p.card.processor === processor.kind) {
    const effect = event.effect;
    if (effect.type === "checkout") await syncCheckout(p);
    else if (effect.type === "attempt_failed" && p.status === "incomplete") await recordAttemptFailed(p.id, null, effect.error, null);
    else if (effect.type === "refund" && p.card.refundStatus) {
      const status = effect.status === "succeeded" ? "succeeded" : effect.status === "failed" || effect.status === "canceled" ? "failed" : "pending";
      const seq = await findRefundSeq(p.id, effect.refundId);
      if (seq !== null) await recordRefundResult(p.id, seq, { status, refundId: effect.refundId, error: effect.failure ?? undefined });
    }
  }
  const first = await recordProcessorEvent({ id: event.id, processor: processor.kind, type: event.type, paymentId: p?.id ?? null });
  return { received: true, duplicate: !first, type: event.type };
}
