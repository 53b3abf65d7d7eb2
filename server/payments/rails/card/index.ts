// The card rail (SERVICE.md part 4, "Paying a priced 402 by card"), from $0.50 in whole cents. Two ways to pay:
//  - hosted checkout for a human: the 402's `card` block (payUrl, statusUrl); POST {"checkout": true} to payUrl opens a
//    checkout on our page, a human pays, and the agent retries the original request with `svc-payment-id`. The card
//    is charged before the call, so the hold is prepaid: delivered once, or refunded in full when the upstream fails;
//  - the MPP card method: a `WWW-Authenticate: Payment` challenge of method `stripe` (mppx's charge with shared
//    payment tokens) answered on the original request; paid and served in one round trip, the token charged after the
//    upstream answered, like the wallet rails (a failed delivery charges nothing), receipt in `Payment-Receipt`.
// The processor (Stripe or the built-in test processor) sits behind ./processor; the hosted checkout's page, payUrl and
// webhook are in ./checkout and ./processor (their route files under app/ are a few lines each). README.md has the rest.
import { Challenge, Receipt } from "mppx";
import { cardEligible, isWholeCents, microsToCents } from "../../../lib/money";
import { markCheckoutDelivered } from "./card.queries";
import { CARD_NOT_OFFERED, cardNetworkId, cardPaymentsOffered, configuredCardProcessor } from "./processor/get-card-processor";
import { checkoutUrls } from "./checkout/open-checkout";
import { reconcileCardPayments } from "./reconcile-card-payments";
import { refundCardPayment, refundCardPaymentForSeller } from "./refund-card-payment";
import { cardStatusBlock } from "./checkout/checkout-view";
import { AppError, invalidParameter } from "../../../errors";
import { MPP_REFUSAL } from "../../mpp/problem-types";
import { releasePayment } from "../../payments.queries";
import type { Rail } from "../rail";
import { acceptCard, type CardRailData } from "./accept";
import { cardMppxServer } from "./mppx-server";
import { readCardProof, type CardProof } from "./read-proof";
import { settleCardToken } from "./settle";
import { MPP_MCP_BINDING } from "../../mpp/mcp-binding";
import { CHECKOUT_MCP_BINDING } from "./mcp-binding";

export const cardRail = {
  name: "card" as const,
  payerKind: "card" as const,
  howToPay:
    'card ($0.50 and up): POST {"checkout": true} to card.payUrl for a page a human pays on, poll card.statusUrl, then retry with svc-payment-id; ' +
    "or answer the `WWW-Authenticate: Payment` challenge of method stripe with a shared payment token",
  // Card credentials are refused as MPP clients expect (problem details and a fresh challenge); `svc-payment-id`
  // refusals opt out per refusal (a retry before completion must not mint a new 402).
  refusal: MPP_REFUSAL,

  // Whose rate-limit budget a card proof spends (docs/rate-limits.md): the checkout it names, or its payment token.
  // Neither is known to be valid yet; a proof that turns out invalid spends the client's budget afterwards.
  payer: async (proof: CardProof) => (proof.kind === "checkout" ? `checkout:${proof.paymentId}` : `spt:${proof.spt}`),

  describe: () => {
    const processor = configuredCardProcessor();
    if (!processor) return { offered: false, detail: CARD_NOT_OFFERED };
    const networkId = cardNetworkId();
    return {
      currency: "USD",
      minimumUsd: "0.50",
      processor: processor.kind,
      testMode: processor.testMode,
      hostedCheckout: {
        payUrl: "POST card.payUrl of the 402",
        body: { checkout: true },
        statusUrl: "card.statusUrl of the 402",
        retryHeader: "svc-payment-id",
      },
      ...(networkId
        ? {
            mpp: {
              intent: "charge",
              method: "stripe",
              networkId,
              paymentMethodTypes: ["card"],
              proofHeader: "Authorization: Payment",
              tokenHeader: "SVC-Agent-Authorization: Bearer spt_...",
              receiptHeader: "Payment-Receipt",
            },
          }
        : {}),
      refunds: "automatic and in full when a paid delivery fails",
    };
  },

  securityScheme: {
    type: "apiKey",
    in: "header",
    name: "svc-payment-id",
    description:
      "Card ($0.50 and up): the payment id of a 402 whose hosted checkout was paid (POST {checkout: true} to card.payUrl, poll card.statusUrl). " +
      "The MPP card method instead answers the stripe challenge with Authorization: Payment and the shared payment token in SVC-Agent-Authorization.",
  },

  discovery: { method: "stripe", description: "card: hosted checkout (payUrl) or the MPP card method (shared payment token), USD in cents" },

  // Whole cents from $0.50: what a card can be charged; nothing when no processor is configured (not offered at all).
  price: (amountMicros) =>
    cardEligible(amountMicros) && isWholeCents(amountMicros) && cardPaymentsOffered()
      ? { amount: (amountMicros / 10_000n).toString(), currency: "usd", network: null, asset: null }
      : null,

  challenge: {
    async offer(call, challenge) {
      const urls = checkoutUrls(call.origin, challenge.paymentId);
      const networkId = cardNetworkId();
      const headers: [string, string][] = [];
      if (networkId) {
        const c = await cardMppxServer(call.realm, networkId).challenge.stripe.charge({
          amount: microsToCents(call.amountMicros),
          description: call.summary,
          externalId: challenge.paymentId,
          expires: new Date(challenge.expiresAt * 1000).toISOString(),
          meta: { payment_id: challenge.paymentId, binding: call.binding },
        });
        headers.push(["WWW-Authenticate", Challenge.serialize(c)]);
      }
      // SERVICE.md part 2: a priced 402 of $0.50 or more carries a `card` block with payUrl and statusUrl.
      return { body: { card: { payUrl: urls.pay, statusUrl: urls.status } }, headers };
    },
  },

  // No processor: a card proof is refused as one this storefront does not take (never run through a processor).
  readProof: (headers) => {
    const read = readCardProof(headers);
    if (read.type === "absent" || cardPaymentsOffered()) return read;
    return { type: "malformed", freshChallenge: false, error: new AppError("card_payments_unavailable", { detail: CARD_NOT_OFFERED }) };
  },
  accept: acceptCard,
  release: releasePayment,

  charge: {
    settle: (payment) => settleCardToken(payment),
    receipt(hold, transaction): Record<string, string> {
      const data = hold.payment.railData as unknown as CardRailData | null;
      if (data?.flow !== "mpp") return {};
      const receipt = Receipt.from({
        method: "stripe",
        status: "success",
        reference: transaction ?? hold.payment.id,
        timestamp: new Date().toISOString(),
        externalId: hold.payment.id,
      } as Parameters<typeof Receipt.from>[0]);
      return { "Payment-Receipt": Receipt.serialize(receipt) };
    },
  },

  prepaid: {
    delivered: (hold, receipt) => markCheckoutDelivered(hold.payment.id, hold.prepaid!.lease, receipt),
    refund: (hold, reason, upstreamStatus) =>
      refundCardPayment({
        paymentId: hold.payment.id,
        sellerId: hold.payment.sellerId,
        cause: "delivery_failed",
        reason: `delivery failed: ${reason}`,
        lease: hold.prepaid!.lease,
        upstreamStatus,
      }),
  },

  reconcile: reconcileCardPayments,

  refund: {
    needs: null,
    partial: true,
    refund(r) {
      if (r.transaction !== undefined) throw invalidParameter("transaction", "a card payment is refunded through the card processor: send no transaction");
      return refundCardPaymentForSeller(r);
    },
  },

  paymentStatus: cardStatusBlock,

  mcp: [MPP_MCP_BINDING, CHECKOUT_MCP_BINDING],
} satisfies Rail<CardProof>;
