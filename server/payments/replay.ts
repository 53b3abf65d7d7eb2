// Resumable delivery: a payment that already bought this very request may serve it again, never be charged again.
// An agent whose connection dropped after the charge (or whose instance died between the charge and the answer) retries
// the same request with the same proof and gets its data, instead of paying twice. Only a payment that was charged
// (PAID_STATES: never one released, failed or refunded), for exactly this request, within PAYMENT_REPLAY_HOURS of the
// charge, and only for the very proof that paid it: each rail says what "the same proof" means (sameProof), comparing
// the presented proof with the one stored when it was locked, so a proof rebuilt from public data (an EIP-3009
// transfer's signature is on chain) without the secret part of its binding cannot replay.
import { env } from "../env";
import { isPaid, sameRequest } from "./payment-state";
import type { PaidCall } from "./paid-call";
import type { PaymentRow } from "./payments.queries";

/** The row, when it may be served again for this call with a proof its rail found to be the one that paid it. */
export function replayOf(row: PaymentRow | null, call: PaidCall, sameProof: (row: PaymentRow) => boolean, now = Date.now()): PaymentRow | null {
  if (!row || !isPaid(row.status) || !sameRequest(row, call)) return null;
  const hours = env().PAYMENT_REPLAY_HOURS;
  const chargedAt = row.settledAt ?? row.verifiedAt ?? row.createdAt;
  if (hours <= 0 || now - chargedAt.getTime() > hours * 3_600_000) return null;
  return sameProof(row) ? row : null;
}
