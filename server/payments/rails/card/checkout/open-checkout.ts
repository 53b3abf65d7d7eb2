// POST payUrl {"checkout": true}: a hosted checkout for a human, for a 402 of $0.50 or more (SERVICE.md part 4). It
// needs no funds and no credential. The payment moves challenged -> incomplete first (one guarded statement, so no
// other rail can spend it any more, and two concurrent POSTs open one checkout), then the processor's checkout is
// created with an idempotency key derived from the payment id (a retry after a timeout or a crash gets the same one).
// The answer is our own page's URL: it shows what is bought and takes the card (test processor) or hands over to
// Stripe Checkout. Plans of $0.50 or more are sold through the same function: any challenged payment row will do.
import type { Catalog } from "../../../../catalog/catalog";
import { env } from "../../../../env";
import { AppError } from "../../../../errors";
import { CARD_MINIMUM_MICROS, microsToUsd, microsToWholeCents } from "../../../../lib/money";
import { paymentStateError } from "../../../payment-state";
import { findPaymentWithCard, recordCheckoutCreated, startCheckout } from "../card.queries";
import { describePurchase } from "./describe-purchase";
import { cardProcessor, processorFor } from "../processor/get-card-processor";
import { processorReference } from "../processor/processor-reference";

export type OpenedCheckout = {
  payment: { id: string; status: string; amount: string; currency: string };
  checkout: { url: string; expires_at: string; processor: string; test_mode: boolean };
  statusUrl: string;
  next: string;
};

export function checkoutUrls(origin: string, paymentId: string) {
  return { page: `${origin}/checkout/${paymentId}`, status: `${origin}/payments/${paymentId}`, pay: `${origin}/payments/${paymentId}/pay` };
}

/** The lifetime of a new checkout: the configured one, within what the processor accepts. */
function checkoutLifetimeSeconds(min: number, max: number): number {
  return Math.min(max, Math.max(min, env().CARD_CHECKOUT_TTL_SECONDS));
}

export async function openCheckout(input: { catalog: Catalog; paymentId: string; origin: string }): Promise<OpenedCheckout> {
  const { catalog, paymentId, origin } = input;
  const sellerId = catalog.seller.id;
  let p = await findPaymentWithCard(sellerId, paymentId);
  if (!p) throw new AppError("payment_unknown", { detail: "no payment with this id at this seller", extra: { payment_id: paymentId } });

  if (p.status === "challenged") {
    const cents = microsToWholeCents(p.amountMicros);
    if (p.amountMicros < CARD_MINIMUM_MICROS || cents === null)
      throw new AppError("amount_below_card_minimum", {
        detail: `card payments start at $0.50 in whole cents; this payment is $${microsToUsd(p.amountMicros)}: pay it with x402 or MPP`,
        extra: { payment_id: p.id, cardMinimumUsd: "0.50" },
      });
    if (p.expiresAt.getTime() <= Date.now()) throw paymentStateError(p);
    const processor = cardProcessor();
    const life = checkoutLifetimeSeconds(processor.checkoutLifetime.minSeconds, processor.checkoutLifetime.maxSeconds);
    await startCheckout({
      sellerId,
      paymentId,
      processor: processor.kind,
      expiresAt: new Date(Date.now() + life * 1000),
      minimumMicros: CARD_MINIMUM_MICROS,
    });
    // Whoever won (this request, a concurrent one, or another rail's proof), the row now says what it is.
    p = (await findPaymentWithCard(sellerId, paymentId))!;
  }
  if (p.rail !== "card" || p.card?.flow !== "checkout") throw paymentStateError(p);

  const urls = checkoutUrls(origin, p.id);
  if (p.status === "incomplete" && !p.card.checkoutId) {
    const purchase = describePurchase(catalog, p);
    const created = await processorFor(p.card.processor).createCheckout({
      paymentId: p.id,
      amountCents: microsToWholeCents(p.amountMicros)!,
      currency: "usd",
      name: `${purchase.title} (${catalog.seller.name})`,
      description: purchase.detail,
      successUrl: `${urls.page}?returned=1`,
      cancelUrl: urls.page,
      expiresAt: p.expiresAt,
      idempotencyKey: `${processorReference(p.id)}:checkout`,
    });
    await recordCheckoutCreated(p.id, created);
    p = (await findPaymentWithCard(sellerId, paymentId))!;
  }
  const processor = processorFor(p.card!.processor);
  return {
    payment: { id: p.id, status: p.status, amount: microsToUsd(p.amountMicros), currency: p.currency },
    checkout: { url: urls.page, expires_at: p.expiresAt.toISOString(), processor: processor.kind, test_mode: processor.testMode },
    statusUrl: urls.status,
    next: `Give checkout.url to a human to pay by card. Poll statusUrl until card.status is "complete", then retry the original request unchanged with the header svc-payment-id: ${p.id}.`,
  };
}
