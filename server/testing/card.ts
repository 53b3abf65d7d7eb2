// Test helpers for the card rail: opening a hosted checkout the way an agent does (402 -> POST payUrl), paying it the
// way a human does on our page (the test processor), and an MPP client with mppx's official `stripe` charge method
// whose wallet issues shared payment tokens at the test processor. Imported by tests only.
import { Challenge, Credential } from "mppx";
import * as payRoute from "../../app/payments/[id]/pay/route";
import * as statusRoute from "../../app/payments/[id]/route";
import { payWithCardOnPage } from "../payments/rails/card/checkout/pay-on-page";
import { testProcessor } from "../payments/rails/card/processor/test-processor";
import { db } from "../db/client";
import { callGateway } from "./gateway";

export const TEST_CARD = {
  success: "4242 4242 4242 4242",
  decline: "4000 0000 0000 0002",
  insufficientFunds: "4000 0000 0000 9995",
  threeDSecure: "4000 0027 6000 3184",
} as const;

export type OpenedCheckout = { paymentId: string; payUrl: string; statusUrl: string; checkoutUrl: string };

/** The agent's side: the 402 of `path`, then POST {checkout: true} to its payUrl. */
export async function openCheckoutFor(host: string, path: string): Promise<OpenedCheckout> {
  return openCheckoutOf(host, await callGateway(host, path));
}

/** POST {checkout: true} to the payUrl of this 402. */
export async function openCheckoutOf(host: string, res: Response): Promise<OpenedCheckout> {
  if (res.status !== 402) throw new Error(`expected a 402, got ${res.status}`);
  const { payment, card } = await res.json();
  const pay = await payRoute.POST(
    new Request(card.payUrl, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ checkout: true }) }),
    { params: Promise.resolve({ id: payment.id }) },
  );
  if (pay.status !== 200) throw new Error(`POST payUrl answered ${pay.status}: ${await pay.text()}`);
  const opened = await pay.json();
  return { paymentId: payment.id, payUrl: card.payUrl, statusUrl: card.statusUrl, checkoutUrl: opened.checkout.url };
}

/** GET statusUrl. */
export async function paymentStatus(host: string, paymentId: string) {
  const res = await statusRoute.GET(new Request(`http://${host}/payments/${paymentId}`, { headers: { host } }), { params: Promise.resolve({ id: paymentId }) });
  return res.json();
}

/** The human's side: the card form on our page, with the attempt number the page shows now. */
export async function payOnPage(sellerId: string, paymentId: string, number: string = TEST_CARD.success, opts: { attempt?: number } = {}) {
  const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId } });
  const year = new Date().getUTCFullYear() + 2;
  return payWithCardOnPage({ sellerId, paymentId, attempt: opts.attempt ?? card.attempts, card: { number, expMonth: 12, expYear: year, cvc: "123" } });
}

/** The retry of the original request with the paid checkout's id. */
export function retryWithPaymentId(host: string, path: string, paymentId: string, headers: Record<string, string> = {}) {
  return callGateway(host, path, { headers: { "svc-payment-id": paymentId, ...headers } });
}

/**
 * mppx's client with its `stripe` charge method: the agent's wallet issues a shared payment token for `card` at the test
 * processor (limited to the challenge's amount, currency and expiry), as Stripe's issuing API would. `mppx/client` is
 * loaded on first use (see officialMppClient in ./gateway).
 */
export async function mppCardClient(card: string = TEST_CARD.success, opts: { fetch?: typeof fetch; issued?: string[] } = {}) {
  const { Mppx: MppxClient, stripe: mppStripe } = await import("mppx/client");
  return MppxClient.create({
    methods: [
      mppStripe.charge({
        paymentMethod: "pm_card_test",
        createToken: async ({ amount, currency, expiresAt }) => {
          const spt = await testProcessor.issueSharedPaymentToken({
            card,
            maxAmountCents: Number(amount),
            currency: currency as "usd",
            expiresAt: new Date(expiresAt * 1000),
          });
          opts.issued?.push(spt);
          return spt;
        },
      }),
    ],
    polyfill: false,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/** An MPP card credential answering the 402's stripe challenge with the shared payment token `spt` (not sent). */
export async function mppCardCredential(res402: Response, spt: string): Promise<string> {
  const [challenge] = Challenge.fromHeadersList(res402.headers).filter((c) => c.method === "stripe");
  return Credential.serialize({ challenge: challenge!, payload: { spt, externalId: (challenge!.request as { externalId: string }).externalId } });
}
