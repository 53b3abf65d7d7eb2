// A payment's status as an agent reads it (GET /payments/{id}) and the hosted checkout it opens: the payment states,
// phases and next steps, the one list of each, and their response contracts (server/contracts/platform.ts lists the
// operations).
import { z } from "zod";

/**
 * Every state a payment passes through, in lifecycle order. The one list: server/payments/payment-state.ts ties it
 * to the database enum at compile time, and the console, status page and refunds read it from there.
 */
export const PAYMENT_STATES = ["challenged", "incomplete", "verified", "settled", "consumed", "released", "refunded", "failed"] as const;

/**
 * What a payment means to the agent that holds its id, on every rail (server/payments/payment-phase.ts derives it from
 * the state and what is known of the settlement): `status` is the lifecycle, `phase` the answer to "did I pay, and did
 * I get what I paid for", `next` what to do about it. Public contract: names are only ever added.
 */
export const PAYMENT_PHASES = ["unpaid", "in_progress", "settlement_pending", "paid", "unpaid_delivery", "released", "refunded", "expired", "failed"] as const;
export const PAYMENT_NEXT_STEPS = ["pay", "wait", "retry_same_request", "pay_again", "none"] as const;

const PHASE_DESCRIPTION = [
  "unpaid: a 402 challenge nobody has paid yet, still open (next: pay).",
  "in_progress: a proof is being served right now, or a card checkout is open and not paid yet; nothing charged (next: wait).",
  "settlement_pending: the charge was decided and is being settled (a transfer signed, not yet included; or retried); the answer may already have been delivered (next: wait).",
  "paid: charged (settled or consumed) (next: retry_same_request while a re-delivery is free, else none).",
  "unpaid_delivery: the answer was delivered before inclusion and the settlement then failed; nothing was charged (next: none).",
  "released: ended without a charge; `reason` says why (next: pay_again).",
  "refunded: charged, then paid back (next: pay_again).",
  "expired: the challenge or card checkout lapsed unpaid (next: pay_again).",
  "failed: the settlement failed before any answer went out; nothing charged (next: pay_again).",
].join(" ");

const NEXT_DESCRIPTION = [
  "pay: answer this payment's 402 with a proof.",
  "wait: poll this resource again shortly; do not pay again.",
  "retry_same_request: send the same request with the same proof (svc-payment-id for a card checkout; the same Idempotency-Key for credits): it is served and never charged again (within PAYMENT_REPLAY_HOURS of the charge, 24 by default).",
  "pay_again: this payment will never deliver; make a fresh unpaid request and pay its new 402.",
  "none: nothing more comes of this payment (delivered, and its free re-delivery has lapsed or does not apply).",
].join(" ");

/** One refund as the ledger recorded it: its amount (USD, six decimals), a wallet refund's transfer, when. */
const refundEntry = z.object({ amount: z.string(), transaction: z.string().nullable(), log_index: z.number().int().nullable(), refunded_at: z.string() });

/** GET /payments/{id}: one payment of this storefront, by the id of its 402's `payment` block (never the proof). */
export const paymentStatusResponse = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_STATES),
  phase: z.enum(PAYMENT_PHASES).meta({ description: `The same vocabulary on every rail. ${PHASE_DESCRIPTION}` }),
  next: z.enum(PAYMENT_NEXT_STEPS).meta({ description: `What the holder of this payment id should do. ${NEXT_DESCRIPTION}` }),
  complete: z.boolean().meta({ description: "Paid: settled or consumed." }),
  rail: z.string().nullable().meta({ description: "The rail that paid (x402, mpp, card); null while the 402 is unpaid." }),
  amount: z.string().meta({ description: "USD, six decimals." }),
  currency: z.string(),
  method: z.string(),
  path: z.string(),
  query: z.string(),
  operation: z.string(),
  meter: z.string().nullable(),
  payer: z.string().nullable(),
  transaction: z.string().nullable().meta({ description: "The settlement reference: the transaction on Base, or the card processor's payment (pi_...)." }),
  reason: z.string().nullable().meta({ description: "Why a payment was released or failed." }),
  expires_at: z.string(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
  refund: refundEntry
    .nullable()
    .meta({ description: "Once refunded: the ledger's refund (for a wallet payment, the seller's transfer back, checked on chain when recorded)." }),
  amount_refunded: z.string().meta({
    description:
      "USD, six decimals: what has been paid back so far (0.000000 when nothing). Above zero while `status` is settled or consumed: partially refunded (the rest stays paid); equal to `amount` once refunded.",
  }),
  refunds: z.array(refundEntry).meta({
    description:
      "Every refund in the order it was made (a card payment may be refunded in parts, up to its amount; a wallet payment once, in full); empty when nothing was refunded. The last one's processor status is `card.refund`.",
  }),
  card: z
    .object({
      status: z
        .enum(["incomplete", "requires_action", "processing", "complete", "consumed", "expired", "refunded", "failed"])
        .meta({ description: "Poll until complete, then retry the original request with svc-payment-id. expired, refunded and failed are final." }),
      flow: z.enum(["checkout", "mpp"]).nullable(),
      checkout_url: z.string().nullable().meta({ description: "The hosted page a human pays on (after POST payUrl)." }),
      brand: z.string().nullable(),
      last4: z.string().nullable(),
      last_error: z
        .object({ code: z.string(), decline_code: z.string().nullable(), message: z.string() })
        .nullable()
        .meta({ description: "The last failed attempt (a decline); the human may try another card while the checkout is open." }),
      refund: z
        .object({ status: z.string(), cause: z.string().nullable(), requested_at: z.string().nullable(), refunded_at: z.string().nullable() })
        .nullable()
        .meta({ description: "A card refund: pending until the processor confirms it, then succeeded." }),
    })
    .nullable()
    .meta({ description: "For a payment that can be, or was, paid by card ($0.50 and up)." }),
});

/** POST /payments/{id}/pay {"checkout": true}: the hosted checkout a human pays on. */
export const checkoutOpenedResponse = z.object({
  payment: z.object({ id: z.string(), status: z.enum(PAYMENT_STATES), amount: z.string(), currency: z.string() }),
  checkout: z.object({
    url: z.string().meta({ description: "A page of this storefront: what is bought, the amount, the seller, and the card form (or Stripe Checkout)." }),
    expires_at: z.string(),
    processor: z.string().meta({ description: "stripe, or test (the built-in test processor: Stripe's test card numbers, no real money)." }),
    test_mode: z.boolean(),
  }),
  statusUrl: z.string(),
  next: z.string(),
});
