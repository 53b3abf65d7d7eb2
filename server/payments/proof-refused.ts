// How a refused payment proof is named, on every rail and binding (SERVICE.md part 7 lists no code of its own for it):
//  - the chain would not move the signed money (the wallet lacks the funds, the authorization was used elsewhere, the
//    transfer reverts): `settlement_failed`, its cause in `settlementReason`, as part 7 puts it;
//  - anything else about the proof (malformed, a signature or challenge that does not verify, an expired or repriced
//    challenge, a method not taken): the 402 `payment_required`, `reason` refining it, as part 7 allows, answered
//    with a fresh challenge like the unpaid 402 (the pipeline attaches it).
// The $0 wallet proof of the free quote is an identity proof: `identity_invalid` (./rails' verifyWalletProof).
import { AppError } from "../errors";

/** Causes a wallet's chain state gives for a signed transfer that cannot settle (facilitators' and our own wording). */
const SETTLEMENT_CAUSES = new Set(["insufficient_funds", "authorization_used", "transfer_simulation_failed", "deposit_simulation_failed"]);

export function isSettlementCause(reason: string): boolean {
  return SETTLEMENT_CAUSES.has(reason);
}

/** The error for a refused proof: settlement_failed for a chain's cause, else payment_required with `reason`. */
export function proofRefused(reason: string, detail: string, extra?: Record<string, unknown>): AppError {
  if (isSettlementCause(reason))
    return new AppError("settlement_failed", {
      detail: `${detail}; retry from the start for a fresh challenge`,
      extra: { settlementReason: reason, ...extra },
    });
  return new AppError("payment_required", { reason, detail, extra });
}

/** The free quote's $0 proof did not verify (SERVICE.md part 7: identity_invalid, sign a fresh challenge). */
export function walletProofRefused(reason: string, detail: string): AppError {
  return new AppError("identity_invalid", { reason, detail });
}
