// From an MPP credential to a locked, verified payment for exactly this call, or the error to answer with.
// Order: our binding and today's terms (free: the credential's challenge must have been issued for this very request)
// -> the challenge's HMAC id (ours, unaltered: the payment id it names can be locked) -> at the same time: the
// chain-state checks mppx leaves to a custom settler (balance and an unused nonce, by the facilitator's simulation)
// with the same PostgreSQL lock as x402 (unique lock key over the signer and nonce, so a hundred copies of one
// credential are served once; ../../eip3009/verify-and-lock.ts), and mppx's validateCredential (expiry, route terms,
// EIP-712 signature, nonce = challenge hash, amount, recipient; no side effects). mppx's refusal wins, as if it had
// run first, and undoes a lock taken meanwhile.
import { Errors } from "mppx";
import { CHAIN_ID, USDC_ADDRESS } from "../../../chain/config";
import { AppError } from "../../../errors";
import type { Eip3009Authorization, StoredAuthorization } from "../../eip3009/authorization";
import { undoUnverifiedHold, verifyAndLock } from "../../eip3009/verify-and-lock";
import { requestMismatch, termsChanged } from "../../payment-state";
import { proofRefused } from "../../proof-refused";
import type { AcceptOutcome, PaidCall } from "../rail";
import { challengeIsOurs } from "../../mpp/mppx-servers";
import { evmMppxServer } from "./mppx-server";
import type { MppProof } from "./read-credential";

/** What MPP stores in `railData`: the EIP-3009 payload plus the challenge it answered (for the receipt). */
export type MppRailData = StoredAuthorization & { challengeId: string };

type AuthorizationPayload = Eip3009Authorization & { type: "authorization"; signature: string };

function refused(error: AppError): AcceptOutcome {
  return { type: "refused", error };
}

function invalid(reason: string, detail: string, paymentId?: string): AcceptOutcome {
  return refused(proofRefused(reason, detail, paymentId ? { payment_id: paymentId } : undefined));
}

/** mppx's refusals, as our part 7 errors (the problem type is restored when the refusal is rendered). */
function fromMppx(e: unknown, paymentId: string): AcceptOutcome {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof Errors.PaymentExpiredError) return invalid("challenge_expired", "the challenge expired; request a fresh 402", paymentId);
  if (e instanceof Errors.InvalidChallengeError)
    return /does not match this route/.test(message)
      ? invalid("terms_changed", "the price or recipient changed since this challenge was issued; request a fresh 402", paymentId)
      : invalid("challenge_invalid", `the challenge does not verify for this storefront (${message})`, paymentId);
  if (e instanceof Errors.InvalidPayloadError || e instanceof Errors.MalformedCredentialError) return invalid("malformed_credential", message, paymentId);
  if (e instanceof Errors.PaymentError) return invalid("verification_failed", message, paymentId);
  // Anything else is a bug, ours or mppx's: a 500 with a request id, never a refusal that hides it. Malformed input
  // cannot get here (read-credential.ts checks the shape first; the fuzz test holds it to that).
  throw e;
}

export async function acceptMpp(call: PaidCall, proof: MppProof): Promise<AcceptOutcome> {
  const { credential, meta } = proof;
  const challenge = credential.challenge;
  if (challenge.method !== "evm" || challenge.intent !== "charge")
    return invalid("method_unsupported", `this storefront takes MPP method "evm", intent "charge" (not ${challenge.method}/${challenge.intent})`);
  if (!meta) return invalid("challenge_invalid", "the credential answers no challenge of this storefront; pay the 402 this request returns");
  const paymentId = meta.payment_id;
  // The challenge's HMAC id verifies: ours, unaltered, so the payment id, binding and terms it carries are the ones we
  // issued (and the payment id can be trusted to lock). mppx checks it again inside validateCredential.
  const ours = challengeIsOurs(challenge);
  // A challenge of ours, made for another request: the spec's 409, before any signature work.
  if (meta.binding !== call.binding)
    return ours ? refused(requestMismatch(paymentId)) : invalid("challenge_invalid", "the challenge was not issued by this storefront");

  // The terms the challenge was issued with must be today's: realm, amount, token, recipient, chain. Compared here
  // (five fields) rather than by asking mppx to rebuild the route's challenge and compare: same answer, a millisecond
  // less.
  const r = challenge.request as { amount?: string; currency?: string; recipient?: string; methodDetails?: { chainId?: number } };
  const sameTerms =
    challenge.realm === call.realm &&
    r.amount === call.amountMicros.toString() &&
    r.currency?.toLowerCase() === USDC_ADDRESS.toLowerCase() &&
    r.recipient?.toLowerCase() === call.payTo.toLowerCase() &&
    r.methodDetails?.chainId === CHAIN_ID;
  if (!ours) return invalid("challenge_invalid", "the challenge was not issued by this storefront", paymentId);
  if (!sameTerms) return refused(termsChanged(call.purpose, paymentId));

  const p = credential.payload as AuthorizationPayload;
  const authorization: Eip3009Authorization = { from: p.from, to: p.to, value: p.value, validAfter: p.validAfter, validBefore: p.validBefore, nonce: p.nonce };
  const railData: MppRailData = { signature: p.signature, authorization, extra: {}, challengeId: challenge.id };
  // Chain state (mppx leaves it to a custom settler: funds, a nonce not used on chain) and the lock, at once; and
  // mppx's validation, CPU work, while both travel (once they are on their way: the next turn of the event loop).
  const locking = verifyAndLock(call, {
    rail: "mpp",
    authorization,
    railData,
    challengedId: paymentId,
    invalid: (reason) => proofRefused(reason, `the MPP payment cannot settle (${reason})`, { payment_id: paymentId }),
    // The challenge id is our HMAC and never on chain (the nonce is a hash of it): the credential that paid, not a copy
    // rebuilt from the transfer.
    sameProof: (stored) => (stored as Partial<MppRailData>).challengeId === challenge.id,
  });
  await new Promise((r) => setImmediate(r));
  let refusedByMppx: { error: unknown } | null = null;
  try {
    // Without route options mppx checks the challenge's own HMAC and expiry, the payload's shape, and the evm method:
    // the EIP-712 signature recovers to `from`, nonce = the challenge hash, amount and recipient as challenged.
    await evmMppxServer(call.realm, call.payTo).validateCredential(credential);
  } catch (e) {
    refusedByMppx = { error: e };
  }
  const outcome = await locking;
  // The credential that paid for this request, retried: its signature is the one mppx validated when it paid, and
  // its challenge has likely expired since (a retry to resume the delivery comes later than that).
  if (!refusedByMppx || outcome.type === "replay") return outcome;
  // mppx's answer comes first, as if it had been asked alone; a lock taken meanwhile is undone.
  if (outcome.type === "held") await undoUnverifiedHold(outcome.hold);
  return fromMppx(refusedByMppx.error, paymentId);
}
