// From a card proof to a hold on exactly this call, or the error to answer with.
//
// svc-payment-id (a hosted checkout a human paid): the payment must be this seller's, made for this very request, and
// complete (settled); then it is claimed for delivery with a lease in one guarded statement, so of any number of
// concurrent retries one is served and the rest are told `payment_in_progress` (then `payment_consumed`). Before the
// human paid: `payment_incomplete`.
//
// The MPP card method (a shared payment token): our binding (the challenge was issued for this request), today's
// terms, the challenge's HMAC and expiry, then the lock (challenged -> verified, unique on the token), as for the
// wallet rails. The card is charged after the upstream answered (settle.ts), so a failed delivery charges nothing.
import { createHash } from "node:crypto";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { microsToWholeCents } from "../../../lib/money";
import { claimCheckoutDelivery, findPaymentWithCard } from "./card.queries";
import { cardNetworkId, cardProcessor } from "./processor/get-card-processor";
import type { ProcessorKind } from "./processor/processor";
import { heldByError, paymentStateError, requestMismatch, sameRequest } from "../../payment-state";
import { findPayment, findPaymentByLockKey, type PaymentRow } from "../../payments.queries";
import { lockChallengedPayment } from "../../locks.queries";
import { proofRefused } from "../../proof-refused";
import { replayOf } from "../../replay";
import type { AcceptOutcome, HeldPayment, PaidCall } from "../rail";
import { challengeIsOurs } from "../../mpp/mppx-servers";
import type { CardProof, CardTokenProof } from "./read-proof";

/** What the MPP card method keeps in `railData` until the charge: the token (a bearer instrument: never logged or returned). */
export type CardRailData = { flow: "mpp"; processor: ProcessorKind; spt: string; challengeId: string };

function refused(error: AppError, freshChallenge?: boolean): AcceptOutcome {
  return { type: "refused", error, freshChallenge };
}

function invalid(reason: string, detail: string, paymentId?: string): AcceptOutcome {
  return refused(proofRefused(reason, detail, paymentId ? { payment_id: paymentId } : undefined), true);
}

function held(p: PaymentRow): HeldPayment {
  return {
    id: p.id,
    sellerId: p.sellerId,
    amountMicros: p.amountMicros,
    payTo: p.payTo,
    network: p.network,
    asset: p.asset,
    payer: p.payer,
    railData: p.railData,
  };
}

async function acceptCheckoutRetry(call: PaidCall, paymentId: string): Promise<AcceptOutcome> {
  const p = await findPaymentWithCard(call.sellerId, paymentId);
  if (!p) return refused(new AppError("payment_unknown", { detail: "no payment with this id at this seller", extra: { payment_id: paymentId } }), false);
  if (!sameRequest(p, call)) return refused(requestMismatch(p.id), false);
  const statusUrl = `${call.origin}/payments/${p.id}`;
  if (p.status === "challenged" || p.status === "incomplete")
    return refused(
      new AppError("payment_incomplete", {
        detail:
          p.status === "challenged"
            ? 'no card payment was started for this 402: POST {"checkout": true} to its card.payUrl, have a human pay, then retry'
            : "the card payment is not complete yet: poll statusUrl until card.status is complete, then retry",
        extra: { payment_id: p.id, statusUrl },
      }),
      false,
    );
  // Delivered before (consumed): the payment id is the proof, so the same request with it resumes the delivery.
  // (settled is paid and not delivered yet: the delivery itself, below.)
  const replay = p.status === "consumed" && p.rail === "card" && p.card?.flow === "checkout" ? replayOf(p, call, () => true) : null;
  if (replay) return { type: "replay", payment: replay };
  if (p.status !== "settled" || p.rail !== "card" || p.card?.flow !== "checkout") return refused(paymentStateError(p), false);
  const lease = await claimCheckoutDelivery(call.sellerId, p.id, env().PAYMENT_LEASE_SECONDS);
  if (!lease) {
    // Another request holds the delivery (or just finished it).
    const now = await findPayment(call.sellerId, p.id);
    // Delivered meanwhile: this retry is served again, as if it had come a moment later.
    const replay = now?.status === "consumed" ? replayOf(now, call, () => true) : null;
    if (replay) return { type: "replay", payment: replay };
    if (now && now.status !== "settled") return refused(paymentStateError(now), false);
    return refused(
      new AppError("payment_in_progress", { detail: "this payment is being delivered to another request right now", extra: { payment_id: p.id } }),
      false,
    );
  }
  return { type: "held", hold: { rail: "card", payment: held(p), prepaid: { lease, reference: p.transaction } } };
}

async function acceptToken(call: PaidCall, proof: CardTokenProof): Promise<AcceptOutcome> {
  const { credential, meta } = proof;
  const challenge = credential.challenge;
  if (challenge.intent !== "charge") return invalid("method_unsupported", `the card method takes intent "charge" (not ${challenge.intent})`);
  if (!meta) return invalid("challenge_invalid", "the credential answers no challenge of this storefront; pay the 402 this request returns");
  const paymentId = meta.payment_id;
  if (meta.binding !== call.binding)
    return challengeIsOurs(challenge)
      ? refused(requestMismatch(paymentId), true)
      : invalid("challenge_invalid", "the challenge was not issued by this storefront");

  const r = challenge.request as { amount?: string; currency?: string; methodDetails?: { networkId?: string } };
  const cents = microsToWholeCents(call.amountMicros);
  const sameTerms =
    challenge.realm === call.realm && cents !== null && r.amount === String(cents) && r.currency === "usd" && r.methodDetails?.networkId === cardNetworkId();
  if (!challengeIsOurs(challenge)) return invalid("challenge_invalid", "the challenge does not verify for this storefront", paymentId);
  if (!sameTerms) return invalid("terms_changed", "the price changed since this challenge was issued; request a fresh 402", paymentId);
  if (proof.externalId !== null && proof.externalId !== paymentId)
    return invalid("challenge_invalid", "the credential's externalId is not this challenge's payment", paymentId);
  // One token pays once: the lock names the token (hashed: the lock key is not a place for a bearer instrument).
  const lockKey = `card:spt:${createHash("sha256").update(proof.spt).digest("hex")}`;
  // The token is a secret of its holder: the credential that paid for this request (its token and its challenge)
  // resumes the delivery, never charged again.
  const replayOfRow = (row: PaymentRow | null) =>
    replayOf(row, call, (r) => r.rail === "card" && r.lockKey === lockKey && (r.railData as Partial<CardRailData> | null)?.challengeId === challenge.id);
  // mppx refuses a credential without an expiry (fail-closed); so do we, unless it already paid for this request (a
  // retry to resume the delivery comes later than the challenge's few minutes).
  if (!challenge.expires || !(Date.parse(challenge.expires) > Date.now())) {
    const replay = replayOfRow(await findPaymentByLockKey(lockKey));
    if (replay) return { type: "replay", payment: replay };
    return invalid("challenge_expired", "the challenge expired; request a fresh 402", paymentId);
  }

  const railData: CardRailData = { flow: "mpp", processor: cardProcessor().kind, spt: proof.spt, challengeId: challenge.id };
  const res = await lockChallengedPayment(call.sellerId, paymentId, {
    rail: "card",
    lockKey,
    payer: null,
    railData,
    leaseSeconds: env().PAYMENT_LEASE_SECONDS,
    transport: call.transport ?? "http",
    payTo: call.payTo,
  });
  if (res === "locked")
    return {
      type: "held",
      hold: {
        rail: "card",
        payment: {
          id: paymentId,
          sellerId: call.sellerId,
          amountMicros: call.amountMicros,
          payTo: call.payTo,
          network: null,
          asset: null,
          payer: null,
          railData: railData as never,
        },
      },
    };
  const taken = await findPaymentByLockKey(lockKey);
  const replay = replayOfRow(taken);
  if (replay) return { type: "replay", payment: replay };
  if (taken) return refused(heldByError(taken, call), true);
  const row = await findPayment(call.sellerId, paymentId);
  if (!row)
    return refused(
      new AppError("payment_unknown", { detail: "the challenge's payment id matches no payment at this seller", extra: { payment_id: paymentId } }),
      true,
    );
  return refused(paymentStateError(row), true);
}

export function acceptCard(call: PaidCall, proof: CardProof): Promise<AcceptOutcome> {
  return proof.kind === "checkout" ? acceptCheckoutRetry(call, proof.paymentId) : acceptToken(call, proof);
}
