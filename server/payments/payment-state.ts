// One payment lifecycle for every rail, in one place: which states exist, which count as paid, which are final,
// which moves are allowed, and the SERVICE.md part 7 error a caller gets for a payment in each state.
//   challenged -> verified -> settled -> consumed;  verified -> released | failed;  settled | consumed -> refunded
//   card checkout (charged before delivery): challenged -> incomplete -> settled -> consumed | refunded;
//   incomplete -> released (the checkout expired unpaid)
import { PAYMENT_STATES } from "../contracts/platform";
import type { PaymentRow, PaymentStatus } from "./payments.queries";
import type { PaidCall } from "./rails/rail";
import { AppError } from "../errors";

// The contract's list and the database enum are the same set (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const statesMatch: Same<(typeof PAYMENT_STATES)[number], PaymentStatus> = true;
void statesMatch;

export { PAYMENT_STATES };

/** Paid: the money moved (revenue, refundable, "complete" on the status page). */
export const PAID_STATES = ["settled", "consumed"] as const satisfies readonly PaymentStatus[];
/** Final: such a payment never becomes spendable again (SERVICE.md part 3). */
export const TERMINAL_STATES = ["consumed", "released", "refunded", "failed"] as const satisfies readonly PaymentStatus[];
/** The moves the state-guarded updates in payments.queries.ts and refund.queries.ts make. */
export const TRANSITIONS = {
  challenged: ["verified", "incomplete"],
  incomplete: ["settled", "released"],
  verified: ["settled", "consumed", "released", "failed"],
  settled: ["consumed", "refunded"],
  consumed: ["refunded"],
} as const satisfies Partial<Record<PaymentStatus, readonly PaymentStatus[]>>;

export function isPaid(status: PaymentStatus): boolean {
  return (PAID_STATES as readonly string[]).includes(status);
}

/** The error for a proof whose payment already exists in `status`. Terminal states never become spendable. */
export function paymentStateError(p: { id: string; status: PaymentStatus }): AppError {
  const extra = { payment_id: p.id };
  switch (p.status) {
    case "incomplete":
      return new AppError("payment_incomplete", {
        detail: "this card payment is not complete yet; poll its statusUrl until it is complete, then retry",
        extra: { ...extra, statusUrl: `/payments/${p.id}` },
      });
    case "verified":
      return new AppError("payment_in_progress", { detail: "this payment is being used by another request right now", extra });
    case "settled":
    case "consumed":
      return new AppError("payment_consumed", { detail: "this payment already bought a response; make a fresh unpaid request and pay its 402", extra });
    case "released":
      return new AppError("payment_released", { detail: "this payment was released without charge; make a fresh unpaid request and pay its 402", extra });
    case "refunded":
      return new AppError("payment_refunded", { detail: "this payment was refunded; make a fresh unpaid request and pay its 402", extra });
    case "failed":
      return new AppError("payment_failed", { detail: "this payment failed to settle; make a fresh unpaid request and pay its 402", extra });
    case "challenged":
      return new AppError("payment_invalid", { reason: "challenge_expired", detail: "the challenge expired; make a fresh unpaid request", extra });
  }
}

/**
 * A proof for a challenge of this very request, issued at other terms: a call's price changed since (request a fresh
 * 402), or a purchase retried with another `amountUsd` than its challenge (SERVICE.md part 7: payment_amount_mismatch).
 */
export function termsChanged(purpose: "call" | "purchase", paymentId: string): AppError {
  if (purpose === "purchase")
    return new AppError("payment_amount_mismatch", {
      detail: "this payment was made for another amountUsd; retry with the amount of its 402, or request a fresh 402 for this amount",
      extra: { payment_id: paymentId },
    });
  return new AppError("payment_invalid", {
    reason: "terms_changed",
    detail: "the price or recipient changed since this challenge was issued; request a fresh 402",
    extra: { payment_id: paymentId },
  });
}

export function requestMismatch(paymentId: string): AppError {
  return new AppError("payment_request_mismatch", {
    detail: "this payment was made for a different request (method, path or query); request a fresh 402 for this one",
    extra: { payment_id: paymentId },
  });
}

/** Whether a payment was made for exactly this call (seller, method, path, canonical query). */
export function sameRequest(p: Pick<PaymentRow, "sellerId" | "method" | "path" | "query">, call: PaidCall): boolean {
  return p.sellerId === call.sellerId && p.method === call.method && p.path === call.path && p.query === call.canonicalQuery;
}

/** The error for a proof someone already holds: another request's (a mismatch), or this one's in a later state. */
export function heldByError(holder: PaymentRow, call: PaidCall): AppError {
  return sameRequest(holder, call) ? paymentStateError(holder) : requestMismatch(holder.id);
}
