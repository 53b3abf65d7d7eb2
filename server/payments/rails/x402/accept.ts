// From an x402 proof to a locked, verified payment for exactly this call, or the error to answer with.
// Order: binding checks (free, no I/O) -> facilitator verify (@x402/evm exact scheme: signature, recipient, amount,
// window, domain, balance by simulation) -> the lock in PostgreSQL (one statement: the challenge row moves to
// verified and takes the unique lock key), which is what makes fifty copies of one proof serve once.
import { NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { authorizationLockKey, facilitatorInput, type StoredAuthorization } from "../../eip3009/authorization";
import { getFacilitator } from "../../eip3009/facilitator";
import { paymentStateError, requestMismatch, termsChanged } from "../../payment-state";
import { findPayment, findPaymentByLockKey, insertHeldPayment, lockChallengedPayment, type PaymentRow } from "../../payments.queries";
import type { AcceptOutcome, HeldPayment, PaidCall } from "../rail";
import { verifyChallenge } from "./challenge-token";
import { offerExtra } from "./offer";
import type { DecodedProof } from "./read-proof";

/** What x402 stores in `railData`: the EIP-3009 payload plus the protocol version it came in. */
export type X402RailData = StoredAuthorization & { version: 1 | 2 };

function sameRequest(p: Pick<PaymentRow, "sellerId" | "method" | "path" | "query">, call: PaidCall): boolean {
  return p.sellerId === call.sellerId && p.method === call.method && p.path === call.path && p.query === call.canonicalQuery;
}

function refused(error: AppError): AcceptOutcome {
  return { type: "refused", error };
}

function invalid(reason: string, detail: string, extra?: Record<string, unknown>): AcceptOutcome {
  return refused(new AppError("payment_invalid", { reason, detail, extra }));
}

/** The error for a proof someone already holds: another request's, or this one's in a later state. */
function heldBy(holder: PaymentRow, call: PaidCall): AcceptOutcome {
  return refused(sameRequest(holder, call) ? paymentStateError(holder) : requestMismatch(holder.id));
}

/** v2 proofs echo our offer: check it was signed for this very call, at today's terms, and is still fresh. */
async function challengeOf(call: PaidCall, proof: DecodedProof): Promise<{ paymentId: string; extra: Record<string, unknown> } | AcceptOutcome> {
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
  if (expiresAt * 1000 <= Date.now()) return invalid("challenge_expired", "the challenge expired; request a fresh 402", { payment_id: paymentId });
  return { paymentId, extra: { ...e } };
}

export async function acceptX402(call: PaidCall, proof: DecodedProof): Promise<AcceptOutcome> {
  let challengedId: string | null = null;
  let extra: Record<string, unknown> = offerExtra({ paymentId: "", challenge: "", expiresAt: 0 });
  // A purchase is bound to its challenge (plan, amount, buyer): only a proof that echoes it (x402 v2) can pay one.
  if (proof.version === 1 && call.purpose === "purchase")
    return invalid("challenge_missing", "a plan purchase must be paid with the challenge of its 402 (x402 v2: PAYMENT-SIGNATURE with the accepted offer)");
  if (proof.version === 2) {
    const c = await challengeOf(call, proof);
    if ("type" in c) return c;
    challengedId = c.paymentId;
    extra = c.extra;
  }

  const payer = proof.authorization.from.toLowerCase();
  const lockKey = authorizationLockKey(proof.authorization);
  const railData: X402RailData = { version: proof.version, signature: proof.signature, authorization: proof.authorization, extra };
  const { payload, requirements } = facilitatorInput(call, railData);
  const verdict = await getFacilitator().verify(payload, requirements);
  if (verdict.type === "unavailable")
    return refused(
      new AppError("payment_provider_unavailable", { detail: "the payment could not be verified right now; retry the same request with backoff" }),
    );
  if (verdict.type === "invalid") {
    // A replay of a proof already spent here (its simulation now fails) or held by a concurrent copy: say so.
    const holder = await findPaymentByLockKey(lockKey);
    if (holder) return heldBy(holder, call);
    return invalid(verdict.reason, `the x402 payment did not verify (${verdict.reason})`);
  }

  const lock = { rail: "x402", lockKey, payer, railData, leaseSeconds: env().PAYMENT_LEASE_SECONDS };
  const held = (id: string): AcceptOutcome => {
    const payment: HeldPayment = {
      id,
      sellerId: call.sellerId,
      amountMicros: call.amountMicros,
      payTo: call.payTo,
      network: NETWORK,
      asset: USDC_ADDRESS,
      payer,
      railData: railData as never,
    };
    return { type: "held", hold: { rail: "x402", payment } };
  };
  if (challengedId) {
    const res = await lockChallengedPayment(call.sellerId, challengedId, lock);
    if (res === "locked") return held(challengedId);
    const taken = await findPaymentByLockKey(lockKey);
    if (taken) return heldBy(taken, call);
    const row = await findPayment(call.sellerId, challengedId);
    if (!row)
      return refused(
        new AppError("payment_unknown", { detail: "the challenge's payment id matches no payment at this seller", extra: { payment_id: challengedId } }),
      );
    return refused(paymentStateError(row));
  }
  const res = await insertHeldPayment({
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    operationKey: call.operationKey,
    meterKey: call.meterKey,
    amountMicros: call.amountMicros,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payTo: call.payTo,
    expiresAt: new Date(Math.min(Number(proof.authorization.validBefore), Date.now() / 1000 + 86_400) * 1000),
    ...lock,
  });
  if (res.result === "locked") return held(res.id);
  const taken = await findPaymentByLockKey(lockKey);
  return taken ? heldBy(taken, call) : refused(new AppError("payment_in_progress", { detail: "retry shortly" }));
}
