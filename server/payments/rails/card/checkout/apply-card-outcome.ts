// What the processor said about a hosted checkout, applied to the payment: paid -> settled (deliverable once), a
// failed attempt -> kept for the page and statusUrl, 3-D Secure -> the page's confirmation step, expired -> released.
// Every write is guarded by the payment's state, so the page, a webhook, a replayed webhook and the reconciler can
// all report the same fact and it lands once.
import { completeCheckoutPayment, expireCheckoutPayment, recordActionRequired, recordAttemptFailed, type PaymentWithCard } from "../card.queries";
import { processorFor } from "../processor/get-card-processor";
import type { ChargeOutcome, CheckoutState } from "../processor/processor";
import { recordProcessorPayerEmail } from "./checkout.queries";
import { sendCheckoutReceipt } from "./send-receipt";

/** A confirmation's outcome (our page's card form, the 3-D Secure step). `attempt`: the form's attempt number. */
export async function applyChargeOutcome(paymentId: string, outcome: ChargeOutcome, attempt: number | null): Promise<void> {
  if (outcome.type === "succeeded")
    await completeCheckoutPayment(paymentId, { paymentIntentId: outcome.paymentIntentId, card: outcome.card, feeCents: outcome.feeCents });
  else if (outcome.type === "requires_action") await recordActionRequired(paymentId, outcome.paymentIntentId);
  else await recordAttemptFailed(paymentId, attempt, outcome.error, outcome.paymentIntentId);
}

/**
 * The checkout's state at the processor (read back after a webhook, a return from the hosted page, or by the
 * reconciler). Paid on the processor's own page (Stripe Checkout collects the payer's email there): the email is kept
 * as the card payer's and the receipt sent, once however many of these report the same payment (claimReceipt).
 */
export async function applyCheckoutState(p: { id: string; sellerId: string }, state: CheckoutState): Promise<void> {
  const paymentId = p.id;
  if (state.paid && state.paymentIntentId) {
    if (state.payerEmail) await recordProcessorPayerEmail(paymentId, state.payerEmail);
    await completeCheckoutPayment(paymentId, { paymentIntentId: state.paymentIntentId, card: state.card, feeCents: state.feeCents });
    // A receipt never holds up or fails the payment: the webhook is acknowledged whatever the mail does.
    await sendCheckoutReceipt(p.sellerId, paymentId).catch((e) => console.error(`[card] the receipt of ${paymentId} was not sent: ${String(e)}`));
  } else if (state.status === "expired") await expireCheckoutPayment(paymentId);
  else if (state.status === "requires_action" && state.paymentIntentId) await recordActionRequired(paymentId, state.paymentIntentId);
  else if (state.lastError) await recordAttemptFailed(paymentId, null, state.lastError, state.paymentIntentId);
}

/** Ask the processor how an open checkout stands and apply it. */
export async function syncCheckout(p: PaymentWithCard): Promise<void> {
  if (p.status !== "incomplete" || !p.card?.checkoutId) return;
  await applyCheckoutState(p, await processorFor(p.card.processor).getCheckout(p.card.checkoutId));
}
