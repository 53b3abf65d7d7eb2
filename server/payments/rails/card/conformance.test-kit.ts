// How card payers pay, for the conformance battery: a human pays the 402's hosted checkout on our page (the built-in
// test processor) and the agent retries with svc-payment-id; or the agent answers the stripe challenge with a shared
// payment token its wallet issued (the MPP card method).
import { mppCardCredential, openCheckoutOf, payOnPage, TEST_CARD } from "../../../testing/card";
import type { RailKit } from "../../../testing/rail-conformance";
import { testProcessor } from "./processor/test-processor";

const BACKTEST = "/api/v1/backtest/AAPL?years=1";

export const kit: RailKit = {
  rail: "card",
  ways: [
    {
      name: "a hosted checkout a human paid",
      path: BACKTEST,
      receiptHeaders: [],
      async pay(challenge, { seller }) {
        const { paymentId } = await openCheckoutOf(seller.host, challenge);
        await payOnPage(seller.sellerId, paymentId, TEST_CARD.success);
        return { "svc-payment-id": paymentId };
      },
    },
    {
      name: "the MPP card method (a shared payment token)",
      path: BACKTEST,
      receiptHeaders: ["payment-receipt"],
      async pay(challenge) {
        const spt = await testProcessor.issueSharedPaymentToken({
          card: TEST_CARD.success.replaceAll(" ", ""),
          maxAmountCents: 50,
          currency: "usd",
          expiresAt: new Date(Date.now() + 600_000),
        });
        return { authorization: await mppCardCredential(challenge, spt) };
      },
    },
  ],
};
