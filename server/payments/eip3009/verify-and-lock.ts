// The tail both wallet rails share once their own protocol checks passed: the chain-state check of the signed
// transfer (the facilitator's simulation: signature, funds, an unused nonce, the window) and the PostgreSQL lock on
// (signer, nonce), which is what makes a hundred copies of one proof serve once.
//
// The two are independent round trips, so they run at the same time: the lock's statement travels while the chain
// simulates, and a paid call waits for the slower of the two instead of both in turn. A lock taken for a proof that
// then fails verification is undone before the refusal is answered (unlockUnverifiedPayment: the challenge can be
// answered again). A lock that is not ours decides alone: the answer is the holder's state, without waiting for the
// chain. A crash between the two leaves a verified row whose lease runs out, and the reconciler releases it, as for a
// crash after any lock.
import { NETWORK, USDC_ADDRESS } from "../../chain/config";
import { env } from "../../env";
import { AppError } from "../../errors";
import { heldByError, paymentStateError } from "../payment-state";
import { requestFields } from "../paid-call";
import { findPayment, findPaymentByLockKey, type PaymentRow } from "../payments.queries";
import { insertHeldPayment, lockChallengedPayment, unlockUnverifiedPayment, type Lock } from "../locks.queries";
import { replayOf } from "../replay";
import type { AcceptOutcome, HeldPayment, Hold, PaidCall } from "../rails/rail";
import { authorizationLockKey, facilitatorInput, type Eip3009Authorization, type StoredAuthorization } from "./authorization";
import { getFacilitator } from "./facilitator";
import type { VerifyOutcome } from "./outcomes";

const refused = (error: AppError): AcceptOutcome => ({ type: "refused", error });

export type WalletProof = {
  /** The name of the wallet rail that carried it. */
  rail: string;
  authorization: Eip3009Authorization;
  railData: StoredAuthorization;
  /** The challenge (a `challenged` payment row) the proof answers, or null for a proof that answers none (x402 v1). */
  challengedId: string | null;
  /** The refusal for a proof the chain would not settle, with the facilitator's reason. */
  invalid(reason: string): AppError;
  /**
   * Whether the authorization stored on the row that holds this lock came with this very proof, binding included
   * (../replay.ts). Absent: this proof never replays.
   */
  sameProof?(stored: Record<string, unknown>): boolean;
};

/**
 * The payment this proof already bought for this very request, if it may be served again (resumable delivery). The
 * signature must be the stored one: the lock key names only the signer and nonce, which anyone can read on chain.
 */
export function walletReplay(call: PaidCall, proof: WalletProof, row: PaymentRow | null): PaymentRow | null {
  return replayOf(row, call, (r) => {
    const stored = (r.railData ?? {}) as Partial<StoredAuthorization> & Record<string, unknown>;
    return (
      r.rail === proof.rail &&
      typeof stored.signature === "string" &&
      stored.signature.toLowerCase() === proof.railData.signature.toLowerCase() &&
      proof.sameProof?.(stored) === true
    );
  });
}

/** The replay of a proof whose own checks would refuse it now (an expired challenge: the retry came later than that). */
export async function findWalletReplay(call: PaidCall, proof: WalletProof): Promise<PaymentRow | null> {
  return walletReplay(call, proof, await findPaymentByLockKey(authorizationLockKey(proof.authorization)));
}

export async function verifyAndLock(call: PaidCall, proof: WalletProof): Promise<AcceptOutcome> {
  const { authorization, railData, challengedId } = proof;
  const payer = authorization.from.toLowerCase();
  const lockKey = authorizationLockKey(authorization);
  // Both wallet rails settle USDC on Base: what the row they lock records.
  const lock: Lock = {
    rail: proof.rail,
    lockKey,
    payer,
    railData,
    leaseSeconds: env().PAYMENT_LEASE_SECONDS,
    network: NETWORK,
    asset: USDC_ADDRESS,
    transport: call.transport ?? "http",
    payTo: call.payTo,
  };
  const { payload, requirements } = facilitatorInput(call, railData);

  const verifying: Promise<VerifyOutcome> = getFacilitator().verify(payload, requirements);
  // A verification nobody waits for (the lock was not ours) must not surface as an unhandled rejection.
  verifying.catch(() => {});
  const locked: { id: string } | { id?: undefined } = await (challengedId
    ? lockChallengedPayment(call.sellerId, challengedId, lock).then((r) => (r === "locked" ? { id: challengedId } : {}))
    : insertHeldPayment({
        ...requestFields(call),
        expiresAt: new Date(Math.min(Number(authorization.validBefore), Date.now() / 1000 + 86_400) * 1000),
        ...lock,
      }).then((r) => (r.result === "locked" ? { id: r.id } : {})));

  if (locked.id === undefined) {
    // Someone holds this proof (a concurrent copy, or an earlier request it already paid for), or the challenge is no
    // longer open. Either way the row says why; the simulation's verdict would not change the answer.
    const taken = await findPaymentByLockKey(lockKey);
    const replay = walletReplay(call, proof, taken);
    if (replay) return { type: "replay", payment: replay };
    if (taken) return refused(heldByError(taken, call));
    if (!challengedId) return refused(new AppError("payment_in_progress", { detail: "retry shortly" }));
    const row = await findPayment(call.sellerId, challengedId);
    if (!row)
      return refused(
        new AppError("payment_unknown", { detail: "the challenge's payment id matches no payment at this seller", extra: { payment_id: challengedId } }),
      );
    return refused(paymentStateError(row));
  }

  let verdict: VerifyOutcome;
  try {
    verdict = await verifying;
  } catch (e) {
    await unlockUnverifiedPayment(locked.id, lockKey);
    throw e;
  }
  if (verdict.type !== "valid") {
    await unlockUnverifiedPayment(locked.id, lockKey);
    if (verdict.type === "unavailable")
      return refused(
        new AppError("payment_provider_unavailable", { detail: "the payment could not be verified right now; retry the same request with backoff" }),
      );
    return refused(proof.invalid(verdict.reason));
  }
  const payment: HeldPayment = {
    id: locked.id,
    sellerId: call.sellerId,
    amountMicros: call.amountMicros,
    payTo: call.payTo,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payer,
    railData: railData as never,
  };
  return { type: "held", hold: { rail: proof.rail, payment } };
}

/** Undo a hold this module gave for a proof its rail then refused on other grounds (MPP: mppx's validation). */
export async function undoUnverifiedHold(hold: Hold): Promise<void> {
  const stored = hold.payment.railData as unknown as StoredAuthorization;
  await unlockUnverifiedPayment(hold.payment.id, authorizationLockKey(stored.authorization));
}
