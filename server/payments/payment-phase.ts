// One status vocabulary for every rail: what a payment means to the agent holding its id (`phase`) and what it should
// do about it (`next`), derived here only, from the payment's own fields and what is known of its settlement. The
// lifecycle state (`status`) answers "where is the row"; an agent on a budget needs "did I pay, did I get it, should I
// wait, retry the same request (free), or pay again", which `status` alone cannot say: `verified` is both "being
// served" and "charge decided, settling"; `failed` is both "nothing delivered" and "delivered, never paid"; `released`
// is both "the upstream failed" and "the checkout expired"; `challenged` is "open" or "lapsed" depending on the clock.
// GET /payments/{id} and every payment event (server/events/render-event.ts) answer with this table.
import { PAYMENT_NEXT_STEPS, PAYMENT_PHASES } from "../contracts/payment-status";
import type { PaymentStatus } from "./payment-state";

export type PaymentPhase = (typeof PAYMENT_PHASES)[number];
export type PaymentNextStep = (typeof PAYMENT_NEXT_STEPS)[number];

/** What the phase is derived from: the row's fields (a synthetic `challenged` row has them too) plus its outbox row. */
export type PhaseFacts = {
  status: PaymentStatus;
  failureReason: string | null;
  expiresAt: Date;
  settledAt: Date | null;
  verifiedAt: Date | null;
  createdAt: Date;
  method: string;
  /** The payment answered one of our challenges (its proof binds this request). */
  fromChallenge: boolean;
  /**
   * The client named this payment with an Idempotency-Key (plan credit): a retry with that key is the same draw. A draw
   * without one has nothing a retry could name, so a retry is a new draw.
   */
  idempotencyKeyed: boolean;
  /** It bought plan credit: its retry answers the first purchase's result, at any time. */
  purchase: boolean;
  /** The settlement outbox row, where the charge was decided on the call (wallet rails, the MPP card method). */
  settlement: { status: "pending" | "succeeded" | "failed"; deliveredFirst: boolean } | null;
};

export type Phase = { phase: PaymentPhase; next: PaymentNextStep };

/** The lock key an Idempotency-Key gives its payment (rails/credits/draw-credits.ts `idempotencyLockKey`). */
export function isIdempotencyLock(lockKey: string | null): boolean {
  return lockKey !== null && lockKey.includes(":idem:");
}

/** Requests a re-delivery serves again (gateway/serve-paid-call.ts: reads only; the upstream may act on others twice). */
const REDELIVERED_METHODS = new Set(["GET", "HEAD"]);

/** The card checkout's expiry, as the card rail records it (rails/card/card.queries.ts). */
const CHECKOUT_EXPIRED = "checkout_expired";

/**
 * `now` and `replayHours` are the moment the answer is about (an event's time) and PAYMENT_REPLAY_HOURS: the free
 * re-delivery of server/payments/replay.ts lasts that long after the charge.
 */
export function paymentPhase(p: PhaseFacts, now: number, replayHours: number): Phase {
  switch (p.status) {
    case "challenged":
      return p.expiresAt.getTime() > now ? { phase: "unpaid", next: "pay" } : { phase: "expired", next: "pay_again" };
    case "incomplete":
      // A card checkout a person is paying: the agent polls until it is paid (or expires).
      return { phase: "in_progress", next: "wait" };
    case "verified":
      // Held. With an outbox row the charge is decided (and the answer may be out already): settling, not unpaid.
      return p.settlement?.status === "pending" ? { phase: "settlement_pending", next: "wait" } : { phase: "in_progress", next: "wait" };
    case "settled":
    case "consumed":
      return { phase: "paid", next: redeliverable(p, now, replayHours) ? "retry_same_request" : "none" };
    case "released":
      return p.failureReason === CHECKOUT_EXPIRED ? { phase: "expired", next: "pay_again" } : { phase: "released", next: "pay_again" };
    case "refunded":
      return { phase: "refunded", next: "pay_again" };
    case "failed":
      // The answer went out before inclusion and the transfer then failed: delivered, never charged; nothing to redo.
      return p.settlement?.deliveredFirst ? { phase: "unpaid_delivery", next: "none" } : { phase: "failed", next: "pay_again" };
  }
}

/**
 * Whether the same request with the same proof is served again now, free. A proof that answered no challenge of ours
 * and carries no client key (an x402 v1 payload, a keyless credit draw) binds no request and never replays.
 */
function redeliverable(p: PhaseFacts, now: number, replayHours: number): boolean {
  // A purchase's retry answers its first result whenever it comes (gateway/handle-plan-purchase.ts).
  if (p.purchase) return true;
  if (!REDELIVERED_METHODS.has(p.method) || !(p.fromChallenge || p.idempotencyKeyed)) return false;
  // Paid before the call and not delivered yet (a card checkout): the retry is its first delivery, not a replay.
  if (p.status === "settled" && !p.settlement) return true;
  const chargedAt = p.settledAt ?? p.verifiedAt ?? p.createdAt;
  return replayHours > 0 && now - chargedAt.getTime() <= replayHours * 3_600_000;
}
