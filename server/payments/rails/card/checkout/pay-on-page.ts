// The human's side of a hosted checkout on our page. With the test processor the page takes the card itself: the
// number goes from the form to the processor in this one call and is never stored or logged (brand and last four
// come back). With Stripe the page hands over to Stripe Checkout, which takes the card.
//
// No double charge on a double click: the form carries the attempt number it was shown with, the confirmation's
// idempotency key names it (`pay_...:confirm:<n>`), the checkout has one PaymentIntent that can succeed once, and the
// payment's move to settled is guarded by its state. A new card after a decline is a new attempt.
import { AppError, invalidParameter } from "../../../../errors";
import { applyChargeOutcome } from "./apply-card-outcome";
import { findPaymentWithCard } from "../card.queries";
import { processorFor } from "../processor/get-card-processor";
import { recordPayerEmail } from "./checkout.queries";
import { sendCheckoutReceipt } from "./send-receipt";
import type { EnteredCard } from "../processor/processor";
import { VALID_EMAIL } from "./validate-card";
import { processorReference } from "../processor/processor-reference";

export type PayResult = { type: "done" } | { type: "stale"; detail: string };

async function openCheckoutOf(sellerId: string, paymentId: string) {
  const p = await findPaymentWithCard(sellerId, paymentId);
  if (!p) throw new AppError("not_found", { detail: "no such checkout" });
  if (p.status !== "incomplete" || !p.card?.checkoutId || p.card.flow !== "checkout") return null;
  const processor = processorFor(p.card.processor);
  return { p, checkoutId: p.card.checkoutId, processor };
}

/**
 * The card form: keep the payer's email if they gave one, confirm the checkout's payment with the entered card, and
 * email the receipt once it is paid. The page's action checks the fields first (validate-card.ts, the same checks as
 * the browser); a number that reaches here unchecked gets the processor's own answer (Stripe: incorrect_number).
 */
export async function payWithCardOnPage(input: {
  sellerId: string;
  paymentId: string;
  attempt: number;
  card: EnteredCard;
  email?: string | null;
}): Promise<PayResult> {
  const email = input.email?.trim().toLowerCase() || null;
  if (email && !VALID_EMAIL.test(email)) throw invalidParameter("email", "Enter an email address such as name@example.com, or leave it empty.");
  const open = await openCheckoutOf(input.sellerId, input.paymentId);
  // Paid, expired or refunded meanwhile: the page shows that state.
  if (!open) return { type: "stale", detail: "this checkout is no longer open" };
  if (!open.processor.onPage) throw new AppError("invalid_request", { detail: "this checkout takes the card on the processor's own page" });
  // A form shown before the last failed attempt (a second click after the first came back declined): show the new state.
  if (input.attempt !== open.p.card!.attempts) return { type: "stale", detail: "this form was already submitted" };
  if (email) await recordPayerEmail(open.p.id, email);
  const outcome = await open.processor.onPage.confirmCard(open.checkoutId, input.card, `${processorReference(open.p.id)}:confirm:${input.attempt}`);
  await applyChargeOutcome(open.p.id, outcome, input.attempt);
  await sendCheckoutReceipt(input.sellerId, open.p.id);
  return { type: "done" };
}

/** The 3-D Secure step on our page: the human completes (or fails) the authentication their bank asks for. */
export async function authenticateOnPage(input: { sellerId: string; paymentId: string; approve: boolean }): Promise<PayResult> {
  const open = await openCheckoutOf(input.sellerId, input.paymentId);
  if (!open || open.p.card!.checkoutStatus !== "requires_action") return { type: "stale", detail: "no authentication is pending" };
  if (!open.processor.onPage) throw new AppError("invalid_request", { detail: "authentication happens on the processor's own page" });
  const outcome = await open.processor.onPage.authenticate(open.checkoutId, input.approve);
  await applyChargeOutcome(open.p.id, outcome, open.p.card!.attempts);
  await sendCheckoutReceipt(input.sellerId, open.p.id);
  return { type: "done" };
}
