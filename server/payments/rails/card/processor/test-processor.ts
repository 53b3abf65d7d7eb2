// The built-in test processor: the offline default when no Stripe key is configured. It behaves like Stripe in test
// mode, with Stripe's own objects (a Checkout Session with one PaymentIntent, refunds, shared payment tokens), its
// error codes and messages, and idempotency keys; its checkout page is ours (/checkout/{paymentId}, labelled as a test
// processor). No money moves. It accepts Stripe's published test card numbers and nothing else: any other number is
// declined the way Stripe's test mode declines a real card (`test_mode_live_card`), so a real card number entered
// by mistake is never charged anywhere. Card numbers are never stored: the behaviour of the test card, its brand and
// last four.
import { randomBytes } from "node:crypto";
import { AppError } from "../../../../errors";
import type { CardDetails, CardProcessor, ChargeOutcome, CheckoutState, EnteredCard, ProcessorError } from "./processor";
import { inTestProcessor, type TestStore } from "./test-processor.queries";
import { luhnValid } from "../../../../lib/luhn";

type Behaviour = "succeeds" | "generic_decline" | "insufficient_funds" | "authentication_required";

/**
 * Stripe's published test card numbers, from https://docs.stripe.com/testing (read 2026-11-23): "Cards by brand"
 * (4242 4242 4242 4242, Visa, succeeds), "Declined payments" (4000 0000 0000 0002, generic decline; 4000 0000 0000
 * 9995, insufficient funds decline) and "3D Secure authentication" (4000 0027 6000 3184, authentication required on
 * all transactions). Any future expiry date and any three-digit CVC, as in Stripe's test mode.
 */
export const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  "4242424242424242": { brand: "visa", behaviour: "succeeds" },
  "4000000000000002": { brand: "visa", behaviour: "generic_decline" },
  "4000000000009995": { brand: "visa", behaviour: "insufficient_funds" },
  "4000002760003184": { brand: "visa", behaviour: "authentication_required" },
};

// Stripe's error codes and customer-facing messages for these outcomes (https://docs.stripe.com/declines/codes,
// https://docs.stripe.com/error-codes).
const DECLINES: Record<Exclude<Behaviour, "succeeds" | "authentication_required">, ProcessorError> = {
  generic_decline: { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
  insufficient_funds: { code: "card_declined", declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
};
const AUTHENTICATION_FAILED: ProcessorError = {
  code: "payment_intent_authentication_failure",
  declineCode: null,
  message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
};
const LIVE_CARD: ProcessorError = {
  code: "card_declined",
  declineCode: "test_mode_live_card",
  message: "Your card was declined. This is a test processor: only Stripe's published test card numbers work here, and no real card is ever charged.",
};

type Session = {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  status: "open" | "requires_action" | "complete" | "expired";
  payment_intent: string;
  expires_at: number;
};
type Intent = {
  id: string;
  amount: number;
  currency: string;
  status: "requires_payment_method" | "requires_action" | "succeeded" | "canceled";
  card: CardDetails | null;
  /** While a 3-D Secure step is pending: the card that asked for it. */
  pending_card: (CardDetails & { behaviour: Behaviour }) | null;
  last_payment_error: ProcessorError | null;
  metadata: Record<string, string>;
  /** Cents refunded so far (several partial refunds, like Stripe's, never more than the charge). */
  amount_refunded?: number;
};
type SharedToken = {
  id: string;
  behaviour: Behaviour;
  card: CardDetails;
  currency: string;
  max_amount: number;
  expires_at: number;
  deactivated_reason: string | null;
};

// Stripe-like ids: a prefix and letters and digits only.
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** The entered card's test behaviour, or the error Stripe would answer. The number itself goes no further than here. */
export function classifyCard(card: EnteredCard): { type: "card"; behaviour: Behaviour; details: CardDetails } | { type: "error"; error: ProcessorError } {
  const digits = card.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
    return { type: "error", error: { code: "incorrect_number", declineCode: null, message: "Your card number is incorrect." } };
  const d = new Date();
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (!(card.expMonth >= 1 && card.expMonth <= 12) || year < d.getUTCFullYear() || (year === d.getUTCFullYear() && card.expMonth < d.getUTCMonth() + 1))
    return { type: "error", error: { code: "expired_card", declineCode: null, message: "Your card has expired." } };
  if (!/^\d{3}$/.test(card.cvc)) return { type: "error", error: { code: "invalid_cvc", declineCode: null, message: "Your card's security code is invalid." } };
  const known = TEST_CARDS[digits];
  if (!known) return { type: "error", error: LIVE_CARD };
  return { type: "card", behaviour: known.behaviour, details: { brand: known.brand, last4: digits.slice(-4) } };
}

/**
 * The fee the test processor reports, as Stripe test mode does from the account's pricing: Stripe's published standard
 * US pricing for domestic cards, 2.9% + 30 cents per successful charge (https://stripe.com/us/pricing), rounded to the
 * nearest cent. The rounding is this test processor's choice; with Stripe the fee is read from the charge.
 */
export function testProcessorFeeCents(amountCents: number): number {
  return Math.round((amountCents * 29) / 1000) + 30;
}

function checkoutState(s: Session, pi: Intent | null): CheckoutState {
  return {
    id: s.id,
    status: s.status,
    paid: s.status === "complete",
    paymentIntentId: s.payment_intent,
    card: pi?.card ?? null,
    lastError: pi?.last_payment_error ?? null,
    feeCents: pi?.status === "succeeded" ? testProcessorFeeCents(pi.amount) : null,
    // The payer types their email on our page, never at the test processor.
    payerEmail: null,
  };
}

async function loadSession(st: TestStore, checkoutId: string): Promise<{ s: Session; pi: Intent }> {
  const s = (await st.get(checkoutId))?.data as Session | undefined;
  if (!s) throw new AppError("not_found", { detail: `no checkout ${checkoutId} at the test processor` });
  const pi = (await st.get(s.payment_intent))!.data as Intent;
  // Stripe expires an open session at expires_at by itself.
  if ((s.status === "open" || s.status === "requires_action") && s.expires_at <= now()) {
    s.status = "expired";
    pi.status = "canceled";
    await st.put(s.id, "checkout_session", s);
    await st.put(pi.id, "payment_intent", pi);
  }
  return { s, pi };
}

/** Apply a card's behaviour to a PaymentIntent: the outcome and the new state of the intent. */
function charge(pi: Intent, behaviour: Behaviour, card: CardDetails, canAct: boolean): ChargeOutcome {
  if (behaviour === "succeeds") {
    Object.assign(pi, { status: "succeeded", card, pending_card: null, last_payment_error: null });
    return { type: "succeeded", paymentIntentId: pi.id, card, feeCents: testProcessorFeeCents(pi.amount) };
  }
  if (behaviour === "authentication_required") {
    if (canAct) {
      Object.assign(pi, { status: "requires_action", pending_card: { ...card, behaviour: "succeeds" }, last_payment_error: null });
      return { type: "requires_action", paymentIntentId: pi.id };
    }
    // No customer is present to authenticate (an agent's token, allow_redirects=never): Stripe leaves it requiring action.
    Object.assign(pi, { status: "requires_action", last_payment_error: null });
    return { type: "requires_action", paymentIntentId: pi.id };
  }
  const error = DECLINES[behaviour];
  Object.assign(pi, { status: "requires_payment_method", last_payment_error: error });
  return { type: "declined", paymentIntentId: pi.id, error };
}

export const testProcessor: CardProcessor & {
  issueSharedPaymentToken(input: { card: string; maxAmountCents: number; currency: "usd"; expiresAt: Date }): Promise<string>;
} = {
  kind: "test",
  label: "Test processor",
  testMode: true,
  checkoutLifetime: { minSeconds: 60, maxSeconds: 24 * 3600 },

  async createCheckout(input) {
    return inTestProcessor(input.idempotencyKey, async (st) => {
      const existing = (await st.byKey(input.idempotencyKey))?.data as Session | undefined;
      if (existing) return { id: existing.id, url: null, expiresAt: new Date(existing.expires_at * 1000) };
      const pi: Intent = {
        id: id("pi"),
        amount: input.amountCents,
        currency: input.currency,
        status: "requires_payment_method",
        card: null,
        pending_card: null,
        last_payment_error: null,
        metadata: { payment_id: input.paymentId },
      };
      const s: Session = {
        id: id("cs"),
        payment_id: input.paymentId,
        amount: input.amountCents,
        currency: input.currency,
        status: "open",
        payment_intent: pi.id,
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      };
      await st.put(pi.id, "payment_intent", pi);
      await st.put(s.id, "checkout_session", s, input.idempotencyKey);
      // Our own page takes the card: no processor-hosted URL.
      return { id: s.id, url: null, expiresAt: input.expiresAt };
    });
  },

  async getCheckout(checkoutId) {
    return inTestProcessor(null, async (st) => {
      const { s, pi } = await loadSession(st, checkoutId);
      return checkoutState(s, pi);
    });
  },

  // Expiring is idempotent by itself here (an expired session stays expired); the key is Stripe's concern.
  async expireCheckout(checkoutId) {
    return inTestProcessor(null, async (st) => {
      const { s, pi } = await loadSession(st, checkoutId);
      if (s.status === "open" || s.status === "requires_action") {
        s.status = "expired";
        pi.status = "canceled";
        await st.put(s.id, "checkout_session", s);
        await st.put(pi.id, "payment_intent", pi);
      }
      return checkoutState(s, pi);
    });
  },

  async chargeSharedToken(input) {
    return inTestProcessor(input.idempotencyKey, async (st) => {
      const previous = await st.byKey(input.idempotencyKey);
      if (previous) return (previous.data as { outcome: ChargeOutcome }).outcome;
      const token = (await st.get(input.spt))?.data as SharedToken | undefined;
      const pi: Intent = {
        id: id("pi"),
        amount: input.amountCents,
        currency: input.currency,
        status: "requires_payment_method",
        card: null,
        pending_card: null,
        last_payment_error: null,
        metadata: input.metadata,
      };
      let outcome: ChargeOutcome;
      // Stripe refuses a token it does not know, one used up, expired, or below the amount or in another currency.
      const unusable = !token
        ? "No such shared payment token."
        : token.deactivated_reason
          ? `This shared payment token is deactivated (${token.deactivated_reason}).`
          : token.expires_at <= now()
            ? "This shared payment token has expired."
            : token.currency !== input.currency || input.amountCents > token.max_amount
              ? "The amount exceeds this shared payment token's usage limits."
              : null;
      if (unusable) {
        outcome = { type: "declined", paymentIntentId: null, error: { code: "shared_payment_token_unusable", declineCode: null, message: unusable } };
      } else {
        outcome = charge(pi, token!.behaviour, token!.card, false);
        if (outcome.type === "succeeded") await st.put(token!.id, "shared_payment_token", { ...token!, deactivated_reason: "consumed" });
        await st.put(pi.id, "payment_intent", pi);
      }
      await st.put(id("cnf"), "confirmation", { outcome }, input.idempotencyKey);
      return outcome;
    });
  },

  async refund(input) {
    return inTestProcessor(input.idempotencyKey, async (st) => {
      const previous = (await st.byKey(input.idempotencyKey))?.data as { id: string } | undefined;
      if (previous) return { type: "refunded", refundId: previous.id, status: "succeeded" };
      const pi = (await st.get(input.paymentIntentId))?.data as Intent | undefined;
      if (!pi || pi.status !== "succeeded")
        return { type: "failed", refundId: null, detail: `payment intent ${input.paymentIntentId} has no successful charge to refund` };
      // The intent is read for update, so concurrent refunds of one charge are summed one after the other.
      const refunded = pi.amount_refunded ?? 0;
      if (input.amountCents <= 0 || refunded + input.amountCents > pi.amount)
        return { type: "failed", refundId: null, detail: `the refund is larger than what is left of the charge (${pi.amount - refunded} cents)` };
      const refund = { id: id("re"), payment_intent: pi.id, amount: input.amountCents, status: "succeeded", reason: input.reason };
      await st.put(pi.id, "payment_intent", { ...pi, amount_refunded: refunded + input.amountCents });
      await st.put(refund.id, "refund", refund, input.idempotencyKey);
      return { type: "refunded", refundId: refund.id, status: "succeeded" };
    });
  },

  onPage: {
    async confirmCard(checkoutId, card, idempotencyKey) {
      // Classified before anything is stored: the number never reaches the database.
      const read = classifyCard(card);
      return inTestProcessor(idempotencyKey, async (st) => {
        const previous = await st.byKey(idempotencyKey);
        if (previous) return (previous.data as { outcome: ChargeOutcome }).outcome;
        const { s, pi } = await loadSession(st, checkoutId);
        let outcome: ChargeOutcome;
        if (pi.status === "succeeded") {
          // Already paid (another tab, a second click with a new form): the one charge, never a second.
          outcome = { type: "succeeded", paymentIntentId: pi.id, card: pi.card, feeCents: testProcessorFeeCents(pi.amount) };
        } else if (s.status === "expired") {
          outcome = {
            type: "declined",
            paymentIntentId: pi.id,
            error: { code: "checkout_session_expired", declineCode: null, message: "This checkout has expired." },
          };
        } else if (read.type === "error") {
          pi.last_payment_error = read.error;
          outcome = { type: "declined", paymentIntentId: pi.id, error: read.error };
        } else {
          outcome = charge(pi, read.behaviour, read.details, true);
        }
        s.status = pi.status === "succeeded" ? "complete" : pi.status === "requires_action" ? "requires_action" : s.status === "expired" ? "expired" : "open";
        await st.put(pi.id, "payment_intent", pi);
        await st.put(s.id, "checkout_session", s);
        await st.put(id("cnf"), "confirmation", { outcome }, idempotencyKey);
        return outcome;
      });
    },

    async authenticate(checkoutId, approve) {
      return inTestProcessor(null, async (st) => {
        const { s, pi } = await loadSession(st, checkoutId);
        if (pi.status === "succeeded") return { type: "succeeded", paymentIntentId: pi.id, card: pi.card, feeCents: testProcessorFeeCents(pi.amount) };
        if (pi.status !== "requires_action" || !pi.pending_card)
          return { type: "declined", paymentIntentId: pi.id, error: pi.last_payment_error ?? AUTHENTICATION_FAILED };
        const { behaviour, ...card } = pi.pending_card;
        let outcome: ChargeOutcome;
        if (approve) outcome = charge(pi, behaviour, card, false);
        else {
          Object.assign(pi, { status: "requires_payment_method", pending_card: null, last_payment_error: AUTHENTICATION_FAILED });
          outcome = { type: "declined", paymentIntentId: pi.id, error: AUTHENTICATION_FAILED };
        }
        s.status = outcome.type === "succeeded" ? "complete" : "open";
        await st.put(pi.id, "payment_intent", pi);
        await st.put(s.id, "checkout_session", s);
        return outcome;
      });
    },
  },

  /**
   * What an agent's wallet does at Stripe (`POST /v1/test_helpers/shared_payment/granted_tokens` in test mode): a
   * shared payment token for one of the test cards, limited to an amount, a currency and a time.
   */
  async issueSharedPaymentToken(input) {
    const read = classifyCard({ number: input.card, expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: "123" });
    if (read.type === "error") throw new AppError("invalid_request", { reason: read.error.code, detail: read.error.message });
    const token: SharedToken = {
      id: id("spt"),
      behaviour: read.behaviour,
      card: read.details,
      currency: input.currency,
      max_amount: input.maxAmountCents,
      expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      deactivated_reason: null,
    };
    await inTestProcessor(null, (st) => st.put(token.id, "shared_payment_token", token));
    return token.id;
  },
};
