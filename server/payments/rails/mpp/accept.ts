// From an MPP credential to a locked, verified payment for exactly this call, or the error to answer with.
// Order: our binding (free: the credential's challenge must have been issued for this very request) -> mppx's
// validateCredential (challenge HMAC and expiry, route terms, EIP-712 signature, nonce = challenge hash, amount,
// recipient; no side effects) -> the chain-state checks mppx leaves to a custom settler (balance and an unused
// nonce, by the facilitator's simulation) -> the same PostgreSQL lock as x402 (unique lock key over the signer and
// nonce), so a hundred copies of one credential are served once.
import { Errors } from "mppx";
import { CHAIN_ID, NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { authorizationLockKey, facilitatorInput, type Eip3009Authorization, type StoredAuthorization } from "../../eip3009/authorization";
import { getFacilitator } from "../../eip3009/facilitator";
import { paymentStateError, requestMismatch, termsChanged } from "../../payment-state";
import { findPayment, findPaymentByLockKey, lockChallengedPayment, type PaymentRow } from "../../payments.queries";
import type { AcceptOutcome, HeldPayment, PaidCall } from "../rail";
import { challengeIsOurs, mppxServer } from "./mppx-server";
import type { MppProof } from "./read-credential";

/** What MPP stores in `railData`: the EIP-3009 payload plus the challenge it answered (for the receipt). */
export type MppRailData = StoredAuthorization & { challengeId: string };

type AuthorizationPayload = Eip3009Authorization & { type: "authorization"; signature: string };

function refused(error: AppError): AcceptOutcome {
  return { type: "refused", error };
}

function invalid(reason: string, detail: string, paymentId?: string): AcceptOutcome {
  return refused(new AppError("payment_invalid", { reason, detail, extra: paymentId ? { payment_id: paymentId } : undefined }));
}

function sameRequest(p: Pick<PaymentRow, "sellerId" | "method" | "path" | "query">, call: PaidCall): boolean {
  return p.sellerId === call.sellerId && p.method === call.method && p.path === call.path && p.query === call.canonicalQuery;
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
  // A challenge of ours, made for another request: the spec's 409, before any signature work.
  if (meta.binding !== call.binding)
    return challengeIsOurs(challenge) ? refused(requestMismatch(paymentId)) : invalid("challenge_invalid", "the challenge was not issued by this storefront");

  // The terms the challenge was issued with must be today's: realm, amount, token, recipient, chain. Compared here
  // (five fields) rather than by asking mppx to rebuild the route's challenge and compare: same answer, a millisecond
  // less. The challenge's HMAC, checked by validateCredential next, proves these fields are the ones we issued.
  const r = challenge.request as { amount?: string; currency?: string; recipient?: string; methodDetails?: { chainId?: number } };
  const sameTerms =
    challenge.realm === call.realm &&
    r.amount === call.amountMicros.toString() &&
    r.currency?.toLowerCase() === USDC_ADDRESS.toLowerCase() &&
    r.recipient?.toLowerCase() === call.payTo.toLowerCase() &&
    r.methodDetails?.chainId === CHAIN_ID;
  if (!sameTerms)
    return challengeIsOurs(challenge)
      ? refused(termsChanged(call.purpose, paymentId))
      : invalid("challenge_invalid", "the challenge was not issued by this storefront", paymentId);

  try {
    // Without route options mppx checks the challenge's own HMAC and expiry, the payload's shape, and the evm method:
    // the EIP-712 signature recovers to `from`, nonce = the challenge hash, amount and recipient as challenged.
    await mppxServer(call.realm, call.payTo).validateCredential(credential);
  } catch (e) {
    return fromMppx(e, paymentId);
  }

  const p = credential.payload as AuthorizationPayload;
  const authorization: Eip3009Authorization = { from: p.from, to: p.to, value: p.value, validAfter: p.validAfter, validBefore: p.validBefore, nonce: p.nonce };
  const payer = authorization.from.toLowerCase();
  const lockKey = authorizationLockKey(authorization);
  const railData: MppRailData = { signature: p.signature, authorization, extra: {}, challengeId: challenge.id };

  // Chain state (mppx leaves it to a custom settler): funds, and a nonce not used on chain.
  const { payload, requirements } = facilitatorInput(call, railData);
  const verdict = await getFacilitator().verify(payload, requirements);
  if (verdict.type === "unavailable")
    return refused(
      new AppError("payment_provider_unavailable", { detail: "the payment could not be verified right now; retry the same request with backoff" }),
    );
  if (verdict.type === "invalid") {
    const holder = await findPaymentByLockKey(lockKey);
    if (holder) return refused(sameRequest(holder, call) ? paymentStateError(holder) : requestMismatch(holder.id));
    return invalid(verdict.reason, `the MPP payment cannot settle (${verdict.reason})`, paymentId);
  }

  const res = await lockChallengedPayment(call.sellerId, paymentId, { rail: "mpp", lockKey, payer, railData, leaseSeconds: env().PAYMENT_LEASE_SECONDS });
  if (res === "locked") {
    const payment: HeldPayment = {
      id: paymentId,
      sellerId: call.sellerId,
      amountMicros: call.amountMicros,
      payTo: call.payTo,
      network: NETWORK,
      asset: USDC_ADDRESS,
      payer,
      railData: railData as never,
    };
    return { type: "held", hold: { rail: "mpp", payment } };
  }
  const taken = await findPaymentByLockKey(lockKey);
  if (taken) return refused(sameRequest(taken, call) ? paymentStateError(taken) : requestMismatch(taken.id));
  const row = await findPayment(call.sellerId, paymentId);
  if (!row)
    return refused(
      new AppError("payment_unknown", { detail: "the challenge's payment id matches no payment at this seller", extra: { payment_id: paymentId } }),
    );
  return refused(paymentStateError(row));
}
