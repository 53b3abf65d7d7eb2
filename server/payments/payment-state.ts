// One payment lifecycle for every rail, in one place: which states exist, which count as paid, which moves are
// allowed, the SQL every statement names them with, and the SERVICE.md part 7 error a caller gets for a payment in
// each state.
//   challenged -> verified -> settled -> consumed;  verified -> released | failed;  settled | consumed -> refunded
//   card checkout (charged before delivery): challenged -> incomplete -> settled -> consumed | refunded;
//   incomplete -> released (the checkout expired unpaid)
// Enforced, not listed: every statement that changes a payment's state takes its guard and its new state from a
// `transition()` of this table (checked when the module loads, and by the compiler), and no SQL outside this module
// and payments.queries.ts names a state (scripts/test/architecture.ts).
import { PAYMENT_STATES } from "../contracts/payment-status";
import { AppError } from "../errors";
import type { PaidCall } from "./paid-call";
import { proofRefused } from "./proof-refused";

export { PAYMENT_STATES };
/** The contract's list (payments.queries.ts checks at compile time that it is the database enum). */
export type PaymentStatus = (typeof PAYMENT_STATES)[number];

/** Paid: the money moved (revenue, refundable, "complete" on the status page). */
export const PAID_STATES = ["settled", "consumed"] as const satisfies readonly PaymentStatus[];
/** Ended without a charge; the row's failure reason says why. */
export const UNCHARGED_STATES = ["released", "failed"] as const satisfies readonly PaymentStatus[];
/** What a row is born as: a 402's challenge, or verified (a proof that answered no challenge of ours: x402 v1, a credits draw). */
export const INITIAL_STATES = ["challenged", "verified"] as const satisfies readonly PaymentStatus[];

/** Every move a payment may make. `verified -> challenged` undoes a lock whose proof then failed verification. */
export const TRANSITIONS = {
  challenged: ["verified", "incomplete"],
  incomplete: ["settled", "released"],
  verified: ["challenged", "settled", "consumed", "released", "failed"],
  settled: ["consumed", "refunded"],
  consumed: ["refunded"],
} as const satisfies Partial<Record<PaymentStatus, readonly PaymentStatus[]>>;

type From = keyof typeof TRANSITIONS;
type Next<F extends From> = (typeof TRANSITIONS)[F][number];
/** The states every one of `F` may move to (the intersection over F). */
type CommonNext<F extends From> = ({ [K in F]: (s: Next<K>) => void }[F] extends (s: infer S) => void ? S : never) & PaymentStatus;

/** A state as SQL (`'verified'`): the only way a statement names one. */
export function stateSql(s: PaymentStatus): string {
  return `'${s}'`;
}

/** A set of states as SQL (`('settled', 'consumed')`), for `status in ...`. */
export function statesSql(states: readonly PaymentStatus[]): string {
  return `(${states.map(stateSql).join(", ")})`;
}

/** The state a new row is inserted with, as SQL. */
export function initialStateSql(s: (typeof INITIAL_STATES)[number]): string {
  return stateSql(s);
}

/** One allowed move, with the SQL its statement uses: the guard on the state before and the state after. */
export type Transition<F extends PaymentStatus = PaymentStatus, T extends PaymentStatus = PaymentStatus> = {
  readonly from: readonly F[];
  readonly to: T;
  /** `status = 'verified'` (or `status in (...)`), over the column as the statement names it. */
  guard(column?: string): string;
  /** The new state as SQL (`'released'`). */
  readonly set: string;
};

/**
 * A move of TRANSITIONS, or a compile error (and, for a value built at run time, a throw when the module loads).
 * Statements build theirs once, at module level: `const RELEASE = transition("verified", "released")`.
 */
export function transition<const F extends From, const T extends CommonNext<F>>(from: F | readonly F[], to: T): Transition<F, T> {
  const froms: readonly F[] = typeof from === "string" ? [from as F] : (from as readonly F[]);
  for (const f of froms)
    if (!((TRANSITIONS as Partial<Record<string, readonly string[]>>)[f] ?? []).includes(to))
      throw new Error(`payment state ${f} -> ${to} is not a transition (payment-state.ts)`);
  const before = froms.length === 1 ? ` = ${stateSql(froms[0]!)}` : ` in ${statesSql(froms)}`;
  return { from: froms, to, set: stateSql(to), guard: (column = "status") => `${column}${before}` };
}

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
      return proofRefused("challenge_expired", "the challenge expired; make a fresh unpaid request", extra);
  }
}

/**
 * A proof for a challenge of this very request, issued at other terms: a call's price changed since (request a fresh
 * 402), or a purchase retried with another `amountUsd` than its challenge (SERVICE.md part 7: payment_amount_mismatch).
 */
export function termsChanged(purpose: PaidCall["purpose"], paymentId: string): AppError {
  if (purpose === "purchase")
    return new AppError("payment_amount_mismatch", {
      detail: "this payment was made for another amountUsd; retry with the amount of its 402, or request a fresh 402 for this amount",
      extra: { payment_id: paymentId },
    });
  return proofRefused("terms_changed", "the price or recipient changed since this challenge was issued; request a fresh 402", { payment_id: paymentId });
}

export function requestMismatch(paymentId: string): AppError {
  return new AppError("payment_request_mismatch", {
    detail: "this payment was made for a different request (method, path or query); request a fresh 402 for this one",
    extra: { payment_id: paymentId },
  });
}

/** The fields of a payment row that say what it was made for. */
type MadeFor = { sellerId: string; method: string; path: string; query: string };

/** Whether a payment was made for exactly this call (seller, method, path, canonical query). */
export function sameRequest(p: MadeFor, call: PaidCall): boolean {
  return p.sellerId === call.sellerId && p.method === call.method && p.path === call.path && p.query === call.canonicalQuery;
}

/** The error for a proof someone already holds: another request's (a mismatch), or this one's in a later state. */
export function heldByError(holder: MadeFor & { id: string; status: PaymentStatus }, call: PaidCall): AppError {
  return sameRequest(holder, call) ? paymentStateError(holder) : requestMismatch(holder.id);
}
