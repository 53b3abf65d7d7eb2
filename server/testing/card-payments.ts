// The set-up of tests about a card payment after it was paid: a seller of its own over a fake upstream, checkouts
// paid by card on our page and delivered, and the seller's refund of them as the console asks it. Imported by tests only.
import { afterAll, beforeAll, expect } from "vitest";
import { refundCardPaymentForSeller } from "../payments/rails/card/refund-card-payment";
import { openCheckoutFor, payOnPage, retryWithPaymentId, TEST_CARD } from "./card";
import { createGatewaySeller, startFakeUpstream, type FakeUpstream, type GatewaySeller } from "./gateway";

const SECRET = "fake-upstream-secret-0123456789";

/**
 * Registers the file's beforeAll/afterAll. `seller` fills in when they have run; `deliveredCheckout()` makes a checkout
 * of `path` (a $0.50 backtest in the tests that use it), pays it by card and has it delivered, returning its id.
 */
export function usePaidCardCheckouts(path: string) {
  const seller = {} as GatewaySeller;
  let upstream: FakeUpstream | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream(SECRET);
    Object.assign(seller, await createGatewaySeller(upstream.url, { signingSecret: SECRET }));
  }, 60_000);
  afterAll(async () => {
    await upstream?.stop();
  });

  async function deliveredCheckout(): Promise<string> {
    const opened = await openCheckoutFor(seller.host, path);
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    expect((await retryWithPaymentId(seller.host, path, opened.paymentId)).status).toBe(200);
    return opened.paymentId;
  }

  const refund = (paymentId: string, amount?: string, requestKey?: string) =>
    refundCardPaymentForSeller({ sellerId: seller.sellerId, actorId: null, paymentId, amount, requestKey });

  return { seller, deliveredCheckout, refund };
}
