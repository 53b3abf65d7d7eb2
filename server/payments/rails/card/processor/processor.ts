// The card processor behind the card rail: Stripe (the official SDK, ./stripe-processor.ts) when STRIPE_SECRET_KEY is
// set, otherwise the built-in test processor (./test-processor.ts), which behaves like Stripe's test mode with its
// published test card numbers and works offline. Both speak this interface; nothing above it knows which one runs.
//
// Every call that changes something at the processor carries an idempotency key derived from our payment id
// (`pay_...:checkout`, `pay_...:mpp_charge`, `pay_...:refund`, `pay_...:confirm:<attempt>`, `pay_...:expire`; reads
// need none), so a retry after a
// timeout or a crash, on any instance, never creates a second charge or refund. Definitive answers (declined,
// requires action) are values; a processor that cannot be reached or answers 5xx throws
// AppError("payment_provider_unavailable"), which callers leave for a retry.

export type ProcessorKind = "stripe" | "test";

/** What is kept of a card: never its number. */
export type CardDetails = { brand: string; last4: string };

/** A failed attempt as Stripe reports it: `card_declined` + `insufficient_funds`, `payment_intent_authentication_failure`, ... */
export type ProcessorError = { code: string; declineCode: string | null; message: string };

export type CheckoutState = {
  id: string;
  /** Stripe's Checkout Session status, plus `requires_action` while a 3-D Secure step is pending on our page. */
  status: "open" | "requires_action" | "complete" | "expired";
  paid: boolean;
  paymentIntentId: string | null;
  card: CardDetails | null;
  lastError: ProcessorError | null;
  /** What the processor kept of the charge, in US cents, once paid; null when not known (see ChargeOutcome). */
  feeCents: number | null;
  /** The email the payer gave on the processor's own page (Stripe Checkout's customer_details.email); null on ours. */
  payerEmail: string | null;
};

export type ChargeOutcome =
  /**
   * `feeCents`: the processor's fee for the charge in US cents, as it reports it (Stripe: the charge's balance
   * transaction); null when not known (not reported yet, or settled in another currency). Never estimated.
   */
  | { type: "succeeded"; paymentIntentId: string; card: CardDetails | null; feeCents: number | null }
  | { type: "declined"; paymentIntentId: string | null; error: ProcessorError }
  /** The card asks for a customer step (3-D Secure): on our page a confirmation; an agent's token cannot take it. */
  | { type: "requires_action"; paymentIntentId: string };

export type RefundOutcome =
  { type: "refunded"; refundId: string; status: "succeeded" | "pending" } | { type: "failed"; refundId: string | null; detail: string };

/** A verified webhook event, reduced to what we act on (the processor's own object is re-read, never trusted as sent). */
export type ProcessorEvent = {
  id: string;
  type: string;
  /** Our payment id, from the object's metadata (client_reference_id / metadata.payment_id); null if not ours. */
  paymentId: string | null;
  /** checkout: re-read the checkout and apply it; refund: the refund's new status; attempt_failed: the last error. */
  effect:
    | { type: "checkout" }
    | { type: "refund"; refundId: string; status: string; failure: string | null }
    | { type: "attempt_failed"; error: ProcessorError }
    | { type: "ignored" };
};

export type CreateCheckoutInput = {
  paymentId: string;
  amountCents: number;
  currency: "usd";
  /** The line item a human sees at the processor: what is bought and from whom. */
  name: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  idempotencyKey: string;
};

export type ChargeTokenInput = {
  paymentId: string;
  amountCents: number;
  currency: "usd";
  /** The shared payment token (spt_...) an agent's MPP card credential carries. */
  spt: string;
  description: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
};

export type RefundInput = { paymentId: string; paymentIntentId: string; amountCents: number; reason: string; idempotencyKey: string };

/** A card a human typed on our own checkout page (test processor only). Used for one call, never stored or logged. */
export type EnteredCard = { number: string; expMonth: number; expYear: number; cvc: string };

export interface CardProcessor {
  readonly kind: ProcessorKind;
  /** Shown on the checkout page and in the console. */
  readonly label: string;
  /** Test mode: no real money moves (the page says so). */
  readonly testMode: boolean;
  /** How long a checkout may stay open (Stripe: 30 minutes to 24 hours after it is created). */
  readonly checkoutLifetime: { minSeconds: number; maxSeconds: number };
  createCheckout(input: CreateCheckoutInput): Promise<{ id: string; url: string | null; expiresAt: Date }>;
  getCheckout(checkoutId: string): Promise<CheckoutState>;
  /** Close an open checkout (it expired on our side); answers the final state (it may have been paid meanwhile). */
  expireCheckout(checkoutId: string, idempotencyKey: string): Promise<CheckoutState>;
  chargeSharedToken(input: ChargeTokenInput): Promise<ChargeOutcome>;
  refund(input: RefundInput): Promise<RefundOutcome>;
  /** Verify a webhook delivery's signature and read it; throws AppError("invalid_request", invalid_webhook_signature). */
  parseWebhook?(rawBody: string, signature: string | null): ProcessorEvent;
  /**
   * The checkout page is ours (test processor): the card form posts here. `idempotencyKey` names the attempt, so a
   * double click confirms once. Stripe has no such member: its hosted page takes the card.
   */
  readonly onPage?: {
    confirmCard(checkoutId: string, card: EnteredCard, idempotencyKey: string): Promise<ChargeOutcome>;
    /** The 3-D Secure step: the human approves (or fails) the authentication their bank asks for. */
    authenticate(checkoutId: string, approve: boolean): Promise<ChargeOutcome>;
  };
}
