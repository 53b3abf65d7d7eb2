// From an x402 proof to a locked, verified payment for exactly this request, or the error to answer with.
// Order: binding checks (free) -> existing lock (one indexed read; replays stop here) -> facilitator verify
// (@x402/evm exact scheme: signature, recipient, amount, window, domain, balance by simulation) -> the lock
// in PostgreSQL (unique asset+payer+nonce, state-guarded), which is what makes fifty copies serve once.
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { NETWORK, USDC_ADDRESS } from "../chain/config";
import { env } from "../env";
import { AppError } from "../errors";
import { canonicalQuery } from "../lib/canonical-query";
import { verifyChallenge } from "./challenge";
import { getFacilitator } from "./facilitator";
import { offerExtra, requirementsV2 } from "./offer";
import { paymentStateError, requestMismatch } from "./payment-errors";
import type { PricedRequest } from "./priced-request";
import { findPayment, findPaymentByAuthorization, insertVerifiedPayment, lockChallengedPayment, type PaymentRow } from "./payments.queries";
import type { DecodedProof } from "./x402-payload";

export type PaidRequest = PricedRequest;

export type AcceptOutcome = { type: "accepted"; paymentId: string; payer: string } | { type: "rejected"; error: AppError };

/** What the proof is stored as: enough to rebuild the facilitator's input after a restart. */
export type StoredProof = { version: 1 | 2; signature: string; authorization: DecodedProof["authorization"]; extra: Record<string, unknown> };

export function facilitatorInput(
  p: Pick<PaymentRow, "amountMicros" | "payTo">,
  proof: StoredProof,
): { payload: PaymentPayload; requirements: PaymentRequirements } {
  const requirements = requirementsV2({ amountMicros: p.amountMicros, payTo: p.payTo, maxTimeoutSeconds: env().PAYMENT_CHALLENGE_TTL_SECONDS }, proof.extra);
  // v1 proofs are lifted into the v2 shape: the EIP-3009 checks are identical, and `accepted` is our own offer.
  return { requirements, payload: { x402Version: 2, accepted: requirements, payload: { signature: proof.signature, authorization: proof.authorization } } };
}

function sameRequest(p: Pick<PaymentRow, "sellerId" | "method" | "path" | "query">, r: PaidRequest): boolean {
  return p.sellerId === r.sellerId && p.method === r.method && p.path === r.path && p.query === canonicalQuery(r.query);
}

function rejected(error: AppError): AcceptOutcome {
  return { type: "rejected", error };
}

function invalid(reason: string, detail: string, extra?: Record<string, unknown>): AcceptOutcome {
  return rejected(new AppError("payment_invalid", { reason, detail, extra }));
}

/** The error for an authorization someone already holds: another request's, or this one's in a later state. */
function heldBy(holder: PaymentRow, r: PaidRequest): AcceptOutcome {
  return rejected(sameRequest(holder, r) ? paymentStateError(holder) : requestMismatch(holder.id));
}

export async function acceptPayment(r: PaidRequest, proof: DecodedProof): Promise<AcceptOutcome> {
  const query = canonicalQuery(r.query);
  const payer = proof.authorization.from.toLowerCase();
  const nonce = proof.authorization.nonce.toLowerCase();
  let challengedId: string | null = null;
  let extra: Record<string, unknown> = offerExtra({ paymentId: "", challenge: "", expiresAt: 0 });

  if (proof.version === 2) {
    const accepted = proof.accepted!;
    const e = accepted.extra ?? {};
    const paymentId = typeof e.paymentId === "string" ? e.paymentId : null;
    const challenge = typeof e.challenge === "string" ? e.challenge : null;
    const expiresAt = typeof e.expiresAt === "number" ? e.expiresAt : null;
    if (!paymentId || !challenge || expiresAt === null || !/^\d{1,78}$/.test(accepted.amount))
      return invalid("challenge_missing", "the accepted offer carries no challenge of ours; pay the 402 this request returns");
    const signedFor = {
      paymentId,
      sellerId: r.sellerId,
      method: r.method,
      path: r.path,
      query,
      amountMicros: BigInt(accepted.amount),
      payTo: accepted.payTo,
      expiresAt,
    };
    if (!verifyChallenge(signedFor, challenge)) {
      const row = await findPayment(r.sellerId, paymentId);
      if (row && !sameRequest(row, r)) return rejected(requestMismatch(row.id));
      return invalid("challenge_invalid", "the challenge does not verify for this request", { payment_id: paymentId });
    }
    if (BigInt(accepted.amount) !== r.amountMicros || accepted.payTo.toLowerCase() !== r.payTo.toLowerCase())
      return invalid("terms_changed", "the price or recipient changed since this challenge was issued; request a fresh 402", { payment_id: paymentId });
    if (expiresAt * 1000 <= Date.now()) return invalid("challenge_expired", "the challenge expired; request a fresh 402", { payment_id: paymentId });
    challengedId = paymentId;
    extra = { ...e };
  }

  const holder = await findPaymentByAuthorization(USDC_ADDRESS, payer, nonce);
  if (holder) return heldBy(holder, r);

  const stored: StoredProof = { version: proof.version, signature: proof.signature, authorization: proof.authorization, extra };
  const { payload, requirements } = facilitatorInput({ amountMicros: r.amountMicros, payTo: r.payTo }, stored);
  const verdict = await getFacilitator().verify(payload, requirements);
  if (verdict.type === "unavailable")
    return rejected(
      new AppError("payment_provider_unavailable", { detail: "the payment could not be verified right now; retry the same request with backoff" }),
    );
  if (verdict.type === "invalid") {
    // Lost a race to a request that has since settled this very authorization: say so, not "invalid".
    const late = await findPaymentByAuthorization(USDC_ADDRESS, payer, nonce);
    if (late) return heldBy(late, r);
    return invalid(verdict.reason, `the x402 payment did not verify (${verdict.reason})`);
  }

  const lock = {
    payer,
    nonce,
    proof: stored as unknown as object,
    x402Version: proof.version,
    lockedUntil: new Date(Date.now() + env().PAYMENT_LEASE_SECONDS * 1000),
  };
  if (challengedId) {
    const res = await lockChallengedPayment(r.sellerId, challengedId, lock);
    if (res === "locked") return { type: "accepted", paymentId: challengedId, payer };
    const taken = await findPaymentByAuthorization(USDC_ADDRESS, payer, nonce);
    if (taken) return heldBy(taken, r);
    const row = await findPayment(r.sellerId, challengedId);
    if (!row)
      return rejected(
        new AppError("payment_unknown", { detail: "the challenge's payment id matches no payment at this seller", extra: { payment_id: challengedId } }),
      );
    return rejected(paymentStateError(row));
  }
  const res = await insertVerifiedPayment({
    sellerId: r.sellerId,
    method: r.method,
    path: r.path,
    query,
    operationKey: r.operationKey,
    meterKey: r.meterKey,
    amountMicros: r.amountMicros,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payTo: r.payTo,
    expiresAt: new Date(Math.min(Number(proof.authorization.validBefore), Date.now() / 1000 + 86_400) * 1000),
    ...lock,
  });
  if (res.result === "locked") return { type: "accepted", paymentId: res.id, payer };
  const taken = await findPaymentByAuthorization(USDC_ADDRESS, payer, nonce);
  return taken ? heldBy(taken, r) : rejected(new AppError("payment_in_progress", { detail: "retry shortly" }));
}
