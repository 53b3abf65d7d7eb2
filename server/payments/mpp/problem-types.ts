// RFC 9457 problem types of the Payment HTTP authentication scheme (paymentauth.org), for every rail that speaks it:
// a refused MPP credential is answered as problem details of one of these types plus a fresh challenge, with our own
// `error` code kept in the body (server/gateway/render-outcome.ts).
import type { AppError } from "../../errors";

const PROBLEMS = "https://paymentauth.org/problems/";

export function mppProblemType(error: AppError): { type: string; title: string } {
  const reason = error.reason ?? "";
  if (reason === "malformed_credential" || reason === "malformed_payment") return { type: `${PROBLEMS}malformed-credential`, title: "Malformed Credential" };
  if (reason === "challenge_expired") return { type: `${PROBLEMS}payment-expired`, title: "Payment Expired" };
  if (reason === "method_unsupported") return { type: `${PROBLEMS}method-unsupported`, title: "Method Unsupported" };
  const refusedProof = error.code === "payment_required" || error.code === "identity_invalid";
  if (refusedProof && reason !== "challenge_invalid" && reason !== "terms_changed")
    return { type: `${PROBLEMS}verification-failed`, title: "Verification Failed" };
  if (error.code === "settlement_failed") return { type: `${PROBLEMS}verification-failed`, title: "Verification Failed" };
  // Another request's challenge, or one already used (consumed, released, refunded, failed, in progress).
  return { type: `${PROBLEMS}invalid-challenge`, title: "Invalid Challenge" };
}

/** How an MPP-method rail's refusals are answered: problem details of these types, and a fresh challenge. */
export const MPP_REFUSAL = { freshChallenge: true, problemType: mppProblemType } as const;
