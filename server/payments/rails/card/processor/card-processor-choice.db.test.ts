// The test processor only when chosen, from a buyer's side: with neither STRIPE_SECRET_KEY nor CARD_TEST_PROCESSOR, a
// 402 offers no card (no card block, no stripe challenge), discovery says card is not offered, a paid checkout's
// svc-payment-id and the payUrl are refused, and no test card can buy anything. With CARD_TEST_PROCESSOR the demo's
// test processor takes the payment, and its checkout says it is a test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as manifestRoute from "../../../../../app/manifest.json/route";
import * as payRoute from "../../../../../app/payments/[id]/pay/route";
import { withEnvForTests } from "../../../../env";
import { describeCardProcessor } from "../..";
import { openCheckoutFor, payOnPage, retryWithPaymentId, TEST_CARD } from "../../../../testing/card";
import { callGateway, createGatewaySeller, startFakeUpstream, type FakeUpstream, type GatewaySeller } from "../../../../testing/gateway";

const SECRET = "fake-upstream-secret-0123456789";
const BACKTEST = "/api/v1/backtest/AAPL?years=2";
let upstream: FakeUpstream;
let seller: GatewaySeller;

const OFF = { CARD_TEST_PROCESSOR: "off", STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined, STRIPE_NETWORK_ID: undefined };

beforeAll(async () => {
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
}, 60_000);

afterAll(() => upstream?.stop());

describe("the card rail without a processor chosen", () => {
  it("is not offered: no card block or stripe challenge in the 402, and the manifest says so", async () => {
    await withEnvForTests(OFF, async () => {
      const res = await callGateway(seller.host, BACKTEST);
      expect(res.status).toBe(402);
      const body = await res.json();
      expect(body.card).toBeUndefined();
      expect(res.headers.get("www-authenticate") ?? "").not.toMatch(/method="stripe"/);
      const manifest = await (
        await manifestRoute.GET(new Request(`http://${seller.host}/manifest.json`, { headers: { host: seller.host } }), { params: Promise.resolve({}) })
      ).json();
      expect(manifest.payment.card).toMatchObject({ offered: false });
      expect(describeCardProcessor()).toMatch(/^card payments: off/);
    });
  });

  it("refuses a checkout paid while a processor was configured, and the payUrl: nothing is bought with a test card", async () => {
    // Opened and paid while the test processor was on (the demo's setting) ...
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    await withEnvForTests(OFF, async () => {
      const before = upstream.state.calls;
      const retry = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
      expect(retry.status).toBe(501);
      expect(await retry.json()).toMatchObject({ error: "card_payments_unavailable" });
      expect(upstream.state.calls).toBe(before);
      // ... and a new checkout cannot be opened at all.
      const challenge = await callGateway(seller.host, BACKTEST);
      const id = (await challenge.json()).payment.id as string;
      const pay = await payRoute.POST(
        new Request(`http://${seller.host}/payments/${id}/pay`, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json" },
          body: JSON.stringify({ checkout: true }),
        }),
        { params: Promise.resolve({ id }) },
      );
      expect(pay.status).toBe(501);
      expect(await pay.json()).toMatchObject({ error: "card_payments_unavailable" });
    });
  });

  it("with CARD_TEST_PROCESSOR on, the test processor takes it and start-up says it is a test", async () => {
    await withEnvForTests({ ...OFF, CARD_TEST_PROCESSOR: "on" }, async () => {
      expect(describeCardProcessor()).toMatch(/TEST processor/);
      const res = await callGateway(seller.host, BACKTEST);
      expect((await res.json()).card).toMatchObject({ payUrl: expect.any(String) });
    });
  });
});
