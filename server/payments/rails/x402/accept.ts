// From an x402 proof to a locked, verified payment for exactly this call, or the error to answer with.
// Order: binding checks (free, no I/O: the challenge HMAC, terms, expiry) -> the facilitator's verification (signature,
// recipient, amount, window, balance by simulation) and the lock in PostgreSQL (the challenge row moves to verified
// and takes the unique lock key), at the same time: ../../eip3009/verify-and-lock.ts, shared with MPP.
import { AppError } from "../../../errors";
import type { StoredAuthorization } from "../../eip3009/authorization";
import { findWalletReplay, verifyAndLock, type WalletProof } from "../../eip3009/verify-and-lock";
import { requestMismatch, sameRequest, termsChanged } from "../../payment-state";
import { findPayment } from "../../payments.queries";
import { proofRefused } from "../../proof-refused";
import type { AcceptOutcome, PaidCall } from "../rail";
import { verifyChallenge } from "./challenge-token";
import { offerExtra } from "./offer";
import type { DecodedProof } from "./read-proof";

/** What x402 stores in `railData`: the EIP-3009 payload plus the protocol version it came in. */
export type X402RailData = StoredAuthorization & { version: 1 | 2 };

function refused(error: AppError): AcceptOutcome {
  return { type: "refused", error };
}

function invalid(reason: string, detail: string, extra?: Record<string, unknown>): AcceptOutcome {
  return refused(proofRefused(reason, detail, extra));
}

/** v2 proofs echo our offer: check it was signed for this very call, at today's terms, and is still fresh. */
async function challengeOf(
  call: PaidCall,
  proof: DecodedProof,
): Promise<{ paymentId: string; challenge: string; expired: boolean; extra: Record<string, unknown> } | AcceptOutcome> {
  const accepted = proof.accepted!;
  const e = accepted.extra ?? {};
  const paymentId = typeof e.paymentId === "string" ? e.paymentId : null;
  const challenge = typeof e.challenge === "string" ? e.challenge : null;
  const expiresAt = typeof e.expiresAt === "number" ? e.expiresAt : null;
  if (!paymentId || !challenge || expiresAt === null || !/^\d{1,78}$/.test(accepted.amount))
    return invalid("challenge_missing", "the accepted offer carries no challenge of ours; pay the 402 this request returns");
  const signedFor = {
    paymentId,
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    amountMicros: BigInt(accepted.amount),
    payTo: accepted.payTo,
    expiresAt,
  };
  if (!verifyChallenge(signedFor, challenge)) {
    const row = await findPayment(call.sellerId, paymentId);
    if (row && !sameRequest(row, call)) return refused(requestMismatch(row.id));
    return invalid("challenge_invalid", "the challenge does not verify for this request", { payment_id: paymentId });
  }
  if (BigInt(accepted.amount) !== call.amountMicros || accepted.payTo.toLowerCase() !== call.payTo.toLowerCase())
    return refused(termsChanged(call.purpose, paymentId));
  // What we offered, rebuilt from the fields the challenge signs (the token's domain is ours): anything else a client
  // put into its echo is not kept, and never reaches the facilitator or the payment's stored proof. An expired
  // challenge is refused by the caller, unless it already paid for this request (a retry to resume the delivery).
  return { paymentId, challenge, expired: expiresAt * 1000 <= Date.now(), extra: offerExtra({ paymentId, challenge, expiresAt }) };
}

export async function acceptX402(call: PaidCall, proof: DecodedProof): Promise<AcceptOutcome> {
  let challengedId: string | null = null;
  let challenge: string | null = null;
  let expired = false;
  let extra: Record<string, unknown> = offerExtra({ paymentId: "", challenge: "", expiresAt: 0 });
  // A purchase is bound to its challenge (plan, amount, buyer): only a proof that echoes it (x402 v2) can pay one.
  if (proof.version === 1 && call.purpose === "purchase")
    return invalid("challenge_missing", "a plan purchase must be paid with the challenge of its 402 (x402 v2: PAYMENT-SIGNATURE with the accepted offer)");
  if (proof.version === 2) {
    const c = await challengeOf(call, proof);
    if ("type" in c) return c;
    ({ paymentId: challengedId, challenge, expired, extra } = c);
  }

  const railData: X402RailData = { version: proof.version, signature: proof.signature, authorization: proof.authorization, extra };
  const wallet: WalletProof = {
    rail: "x402",
    authorization: proof.authorization,
    railData,
    challengedId,
    invalid: (reason) => proofRefused(reason, `the x402 payment did not verify (${reason})`),
    // A v2 proof replays with the challenge token it paid with (our HMAC, never on chain). A v1 proof binds no request:
    // rebuilt from the chain, it could be replayed by anyone who guesses the request, so it never replays.
    sameProof: (stored) =>
      challenge !== null && (stored as Partial<X402RailData>).version === 2 && (stored.extra as { challenge?: unknown })?.challenge === challenge,
  };
  if (expired) {
    const replay = await findWalletReplay(call, wallet);
    if (replay) return { type: "replay", payment: replay };
    return invalid("challenge_expired", "the challenge expired; request a fresh 402", { payment_id: challengedId });
  }
  return verifyAndLock(call, wallet);
}
