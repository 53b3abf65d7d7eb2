// A payment that cannot buy this request, as the SERVICE.md part 7 error the caller acts on.
import { AppError } from "../errors";
import type { PaymentRow } from "./payments.queries";

/** The error for a proof whose payment already exists in `status`. Terminal states never become spendable. */
export function paymentStateError(p: Pick<PaymentRow, "id" | "status">): AppError {
  const extra = { payment_id: p.id };
  switch (p.status) {
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

export function requestMismatch(paymentId: string): AppError {
  return new AppError("payment_request_mismatch", {
    detail: "this payment was made for a different request (method, path or query); request a fresh 402 for this one",
    extra: { payment_id: paymentId },
  });
}
