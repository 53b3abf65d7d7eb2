// The card rail's share of the reconciler (every instance, at start and every SETTLEMENT_RECONCILE_INTERVAL_MS; each
// step state-guarded, so instances never double up):
//  - checkouts quiet for a while or past their expiry: ask the processor (paid after all -> settled, deliverable; a
//    crash between the processor's charge and our write ends here), and close expired ones (-> released);
//  - paid checkouts the agent never retried within CARD_DELIVERY_WINDOW_SECONDS, and not being delivered right now:
//    refunded in full. A delivery claims the payment with a lease and the refund requires no live lease, in single
//    statements, so a crash between charge and delivery ends delivered (on the agent's retry) or refunded, never
//    both and never neither;
//  - refunds decided but not confirmed by the processor (an outage): asked again with the same idempotency key.
import { env } from "../../../env";
import { applyCheckoutState } from "./checkout/apply-card-outcome";
import { expireCheckoutPayment, findPaymentWithCardById } from "./card.queries";
import { findExpiredCheckoutsWithoutSession, findOpenCheckouts, findPendingRefunds, findUndeliveredCheckouts, touchCardPayment } from "./reconcile.queries";
import { processorFor } from "./processor/get-card-processor";
import { refundCardPayment, sendCardRefund } from "./refund-card-payment";
import { processorReference } from "./processor/processor-reference";

/** A checkout nobody has reported on for this long is asked about (webhooks normally come within seconds). */
const QUIET_SECONDS = 120;

export async function reconcileCardPayments(): Promise<{ settled: number; released: number; refunded: number }> {
  const report = { settled: 0, released: 0, refunded: 0 };
  for (const id of await findOpenCheckouts(50, QUIET_SECONDS)) {
    try {
      const p = await findPaymentWithCardById(id);
      if (!p?.card?.checkoutId || p.status !== "incomplete") continue;
      const processor = processorFor(p.card.processor);
      const state =
        p.expiresAt.getTime() <= Date.now()
          ? await processor.expireCheckout(p.card.checkoutId, `${processorReference(p.id)}:expire`)
          : await processor.getCheckout(p.card.checkoutId);
      await applyCheckoutState(p, state);
      await touchCardPayment(p.id);
      const after = await findPaymentWithCardById(id);
      if (after?.status === "settled") report.settled++;
      if (after?.status === "released") report.released++;
    } catch (e) {
      console.error(`[reconciler] card checkout ${id}:`, e instanceof Error ? e.message : e);
    }
  }
  for (const id of await findExpiredCheckoutsWithoutSession(50)) if (await expireCheckoutPayment(id)) report.released++;
  for (const p of await findUndeliveredCheckouts(50, env().CARD_DELIVERY_WINDOW_SECONDS)) {
    const refunded = await refundCardPayment({
      paymentId: p.id,
      sellerId: p.sellerId,
      cause: "undelivered",
      reason: "undelivered: the paid request was not retried within the delivery window",
      requireUnleased: true,
    });
    if (refunded) report.refunded++;
  }
  for (const r of await findPendingRefunds(50, 30)) {
    try {
      await sendCardRefund(r.paymentId, r.seq);
    } catch (e) {
      console.error(`[reconciler] card refund ${r.seq} of ${r.paymentId}:`, e instanceof Error ? e.message : e);
    }
  }
  return report;
}
