// Stripe, through the official SDK (stripe 23.1.0): Checkout Sessions for the hosted flow (the human pays on Stripe's
// page, PCI scope stays with Stripe), PaymentIntents confirmed with a shared payment token for the MPP card method,
// the Refunds API, and webhooks verified with the SDK's signature check. Enabled by STRIPE_SECRET_KEY (and
// STRIPE_WEBHOOK_SECRET); STRIPE_API_URL points the SDK at another host, port and protocol (the tests' local
// Stripe-shaped server). Every create carries the idempotency key the caller derived from our payment id, and the SDK
// retries network failures with that same key.
import Stripe from "stripe";
import { env } from "../../../../env";
import { AppError } from "../../../../errors";
import type { CardDetails, CardProcessor, ChargeOutcome, CheckoutState, ProcessorError, ProcessorEvent } from "./processor";
import { processorReference } from "./processor-reference";

/**
 * The API version mppx 0.11 sends for PaymentIntents confirmed with `shared_payment_granted_token` (a preview field,
 * not in the SDK's types). Stripe's changelog also documents `payment_method_data.shared_payment_granted_token` on
 * 2026-04-22.preview; we follow mppx, the reference client and server of the method (PAYMENTS-INTEROP "Card").
 */
export const SPT_API_VERSION = "2026-07-29.preview";

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes or later than 24 hours after it is created. */
export const STRIPE_CHECKOUT_LIFETIME = { minSeconds: 35 * 60, maxSeconds: 24 * 3600 };

let cached: { key: string; client: Stripe } | undefined;

function stripe(): Stripe {
  const e = env();
  const key = `${e.STRIPE_SECRET_KEY}|${e.STRIPE_API_URL ?? ""}`;
  if (cached?.key !== key) {
    const url = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : null;
    cached = {
      key,
      client: new Stripe(e.STRIPE_SECRET_KEY!, {
        maxNetworkRetries: 2,
        timeout: 10_000,
        telemetry: false,
        appInfo: { name: "agent-data-storefront" },
        ...(url ? { host: url.hostname, port: url.port || (url.protocol === "https:" ? 443 : 80), protocol: url.protocol === "http:" ? "http" : "https" } : {}),
      }),
    };
  }
  return cached.client;
}

/** Network failures, Stripe's 5xx and rate limits are transient: the caller retries later with the same idempotency key. */
function transient(e: unknown): boolean {
  return (
    e instanceof Stripe.errors.StripeConnectionError ||
    e instanceof Stripe.errors.StripeAPIError ||
    e instanceof Stripe.errors.StripeRateLimitError ||
    (e instanceof Stripe.errors.StripeError && (e.statusCode ?? 0) >= 500)
  );
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (transient(e)) {
      console.error(`[stripe] ${what} failed:`, e instanceof Error ? e.message : e);
      throw new AppError("payment_provider_unavailable", { detail: "the card processor could not be reached; try again in a moment", cause: e });
    }
    throw e;
  }
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

function cardOf(pi: Stripe.PaymentIntent | null): CardDetails | null {
  const charge = pi && typeof pi.latest_charge === "object" ? pi.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return card?.last4 ? { brand: card.brand ?? "card", last4: card.last4 } : null;
}

/** The fee Stripe reports on the charge's balance transaction, when it is in USD (a fee in another currency is not a USD cost). */
function feeOf(pi: Stripe.PaymentIntent | null): number | null {
  const charge = pi && typeof pi.latest_charge === "object" ? pi.latest_charge : null;
  const bt = charge && typeof charge.balance_transaction === "object" ? charge.balance_transaction : null;
  return bt && bt.currency === "usd" ? bt.fee : null;
}

function errorOf(e: { code?: string | null; decline_code?: string | null; message?: string | null } | null | undefined): ProcessorError | null {
  return e ? { code: e.code ?? "card_error", declineCode: e.decline_code ?? null, message: e.message ?? "The payment failed." } : null;
}

function checkoutState(s: Stripe.Checkout.Session): CheckoutState {
  const pi = typeof s.payment_intent === "object" ? s.payment_intent : null;
  return {
    id: s.id,
    status: s.status === "complete" ? "complete" : s.status === "expired" ? "expired" : "open",
    paid: s.payment_status === "paid",
    paymentIntentId: idOf(s.payment_intent),
    card: cardOf(pi),
    lastError: errorOf(pi?.last_payment_error),
    feeCents: s.payment_status === "paid" ? feeOf(pi) : null,
    payerEmail: s.customer_details?.email ?? null,
  };
}

const EXPAND = ["payment_intent", "payment_intent.latest_charge.balance_transaction"];

export const stripeProcessor: CardProcessor = {
  kind: "stripe",
  label: "Stripe",
  get testMode() {
    return Boolean(env().STRIPE_SECRET_KEY?.includes("_test_"));
  },
  checkoutLifetime: STRIPE_CHECKOUT_LIFETIME,

  async createCheckout(input) {
    const session = await call("checkout.sessions.create", () =>
      stripe().checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: { currency: input.currency, unit_amount: input.amountCents, product_data: { name: input.name, description: input.description } },
            },
          ],
          client_reference_id: processorReference(input.paymentId),
          metadata: { payment_id: processorReference(input.paymentId) },
          payment_intent_data: { metadata: { payment_id: processorReference(input.paymentId) }, description: input.description },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  },

  async getCheckout(checkoutId) {
    return checkoutState(await call("checkout.sessions.retrieve", () => stripe().checkout.sessions.retrieve(checkoutId, { expand: EXPAND })));
  },

  async expireCheckout(checkoutId, idempotencyKey) {
    try {
      await call("checkout.sessions.expire", () => stripe().checkout.sessions.expire(checkoutId, {}, { idempotencyKey }));
    } catch (e) {
      // Only an open session can be expired: it was completed (or expired) meanwhile. The state read next says which.
      if (!(e instanceof Stripe.errors.StripeInvalidRequestError)) throw e;
    }
    return this.getCheckout(checkoutId);
  },

  async chargeSharedToken(input): Promise<ChargeOutcome> {
    // As mppx's stripe charge method creates it (dist/stripe/server/Charge.js), with our idempotency key and metadata.
    const params = {
      amount: input.amountCents,
      currency: input.currency,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      shared_payment_granted_token: input.spt,
      description: input.description,
      metadata: input.metadata,
      expand: ["latest_charge.balance_transaction"],
    } as Stripe.PaymentIntentCreateParams;
    let pi: Stripe.PaymentIntent;
    try {
      pi = await call("payment_intents.create", () =>
        stripe().paymentIntents.create(params, { idempotencyKey: input.idempotencyKey, apiVersion: SPT_API_VERSION }),
      );
    } catch (e) {
      if (e instanceof Stripe.errors.StripeCardError) return { type: "declined", paymentIntentId: e.payment_intent?.id ?? null, error: errorOf(e)! };
      // The token itself was refused (unknown, used up, over its limits): a definitive no, like a decline.
      if (e instanceof Stripe.errors.StripeInvalidRequestError && /shared_payment|spt_/i.test(`${e.param ?? ""} ${e.message}`))
        return { type: "declined", paymentIntentId: null, error: { code: e.code ?? "shared_payment_token_unusable", declineCode: null, message: e.message } };
      throw e;
    }
    if (pi.status === "succeeded") return { type: "succeeded", paymentIntentId: pi.id, card: cardOf(pi), feeCents: feeOf(pi) };
    if (pi.status === "requires_action") return { type: "requires_action", paymentIntentId: pi.id };
    return {
      type: "declined",
      paymentIntentId: pi.id,
      error: errorOf(pi.last_payment_error) ?? { code: "payment_intent_unexpected_state", declineCode: null, message: `The payment is ${pi.status}.` },
    };
  },

  async refund(input) {
    const refund = await call("refunds.create", () =>
      stripe().refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          reason: "requested_by_customer",
          metadata: { payment_id: processorReference(input.paymentId), cause: input.reason },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    if (refund.status === "failed" || refund.status === "canceled")
      return { type: "failed", refundId: refund.id, detail: refund.failure_reason ?? `the refund is ${refund.status}` };
    return { type: "refunded", refundId: refund.id, status: refund.status === "succeeded" ? "succeeded" : "pending" };
  },

  parseWebhook(rawBody, signature): ProcessorEvent {
    const secret = env().STRIPE_WEBHOOK_SECRET;
    let event: Stripe.Event;
    try {
      if (!secret || !signature) throw new Error("no signature");
      // The SDK checks the HMAC-SHA256 over the timestamp and the raw body, and a 300 s tolerance against replays.
      event = stripe().webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new AppError("invalid_request", { reason: "invalid_webhook_signature", detail: "the Stripe-Signature header does not verify for this body" });
    }
    const object = event.data.object as unknown as Record<string, unknown> & { metadata?: Record<string, string> | null };
    const fromMetadata = object.metadata?.payment_id ?? null;
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.expired":
      case "checkout.session.async_payment_succeeded":
      case "checkout.session.async_payment_failed":
        return { id: event.id, type: event.type, paymentId: (object.client_reference_id as string | null) ?? fromMetadata, effect: { type: "checkout" } };
      case "payment_intent.payment_failed": {
        const error = errorOf((object as unknown as Stripe.PaymentIntent).last_payment_error);
        return { id: event.id, type: event.type, paymentId: fromMetadata, effect: error ? { type: "attempt_failed", error } : { type: "ignored" } };
      }
      case "refund.created":
      case "refund.updated":
      case "refund.failed": {
        const r = object as unknown as Stripe.Refund;
        return {
          id: event.id,
          type: event.type,
          paymentId: fromMetadata,
          effect: { type: "refund", refundId: r.id, status: r.status ?? "pending", failure: r.failure_reason ?? null },
        };
      }
      default:
        return { id: event.id, type: event.type, paymentId: fromMetadata, effect: { type: "ignored" } };
    }
  },
};
