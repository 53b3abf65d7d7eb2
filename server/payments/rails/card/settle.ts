// Charging the MPP card method's token, from the settlement outbox after the upstream answered 2xx or 3xx (and again
// by the reconciler after a crash): a PaymentIntent confirmed with the shared payment token, with the idempotency key
// `pay_...:mpp_charge`, so a retry never charges twice. A decline is final (the payment fails, nothing was charged);
// a processor outage leaves it in the outbox.
import { microsToWholeCents } from "../../../lib/money";
import { upsertTokenCharge } from "./card.queries";
import { processorFor } from "./processor/get-card-processor";
import type { HeldPayment, SettleOutcome } from "../rail";
import type { CardRailData } from "./accept";
import { processorReference } from "./processor/processor-reference";

export async function settleCardToken(payment: HeldPayment): Promise<SettleOutcome> {
  const data = payment.railData as unknown as CardRailData | null;
  if (data?.flow !== "mpp") return { type: "failed", reason: "not a card token payment" };
  const processor = processorFor(data.processor);
  const outcome = await processor.chargeSharedToken({
    paymentId: payment.id,
    amountCents: microsToWholeCents(payment.amountMicros)!,
    currency: "usd",
    spt: data.spt,
    description: `payment ${payment.id}`,
    metadata: { payment_id: processorReference(payment.id), machine_payment: "true", mpp_challenge_id: data.challengeId },
    idempotencyKey: `${processorReference(payment.id)}:mpp_charge`,
  });
  if (outcome.type === "succeeded") {
    await upsertTokenCharge(payment.id, processor.kind, { paymentIntentId: outcome.paymentIntentId, card: outcome.card, error: null });
    // The processor's fee is what this charge cost the seller (the console's margin), when the processor reported it.
    return {
      type: "settled",
      transaction: outcome.paymentIntentId,
      cost: outcome.feeCents === null ? undefined : { feeMicros: BigInt(outcome.feeCents) * 10_000n },
    };
  }
  if (outcome.type === "requires_action") {
    const error = {
      code: "authentication_required",
      declineCode: null,
      message: "The card asks for authentication, which a shared payment token cannot give.",
    };
    await upsertTokenCharge(payment.id, processor.kind, { paymentIntentId: outcome.paymentIntentId, card: null, error });
    return { type: "failed", reason: "authentication_required" };
  }
  await upsertTokenCharge(payment.id, processor.kind, { paymentIntentId: outcome.paymentIntentId, card: null, error: outcome.error });
  return { type: "failed", reason: outcome.error.declineCode ? `${outcome.error.code}: ${outcome.error.declineCode}` : outcome.error.code };
}
