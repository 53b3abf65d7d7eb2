// The person's controls on the one paid-call pipeline (server/gateway/run-paid-call.ts): asked once a call carries a
// proof, before any rail accepts it, so a refusal here has charged, locked and held nothing. In order:
//   the credential the call carries (its bearer, on any rail: plan credit, x402, MPP, card):
//     revoked -> invalid_token (token_invalid), frozen -> credential_frozen
//   the paying wallet's caps at this storefront, whatever credential sends it (server/wallet-caps): reserved in its
//     day's window, or wallet_cap_exceeded
//   the person's approval threshold (server/approvals): a call over it is held (approval_required) until approved, then
//     served once; the proof that spent an approval comes again as a replay, which only its rail's replay may serve
// What was reserved is given back by `end(false)` when the call ends without a charge now (released, refused, failed, a replay).
import { createHash } from "node:crypto";
import type { BudgetGate } from "../budgets/hold-budget";
import { AppError } from "../errors";
import type { PaidCall } from "../payments/paid-call";
import type { Rail } from "../payments/rails/rail";
import { admitOverThreshold } from "../approvals/admit-over-threshold";
import { reserveWalletCap } from "../wallet-caps/reserve-wallet-cap";
import { carriedCredential, controlsListening, credentialControls } from "./credential-controls";

export type Admission =
  /** `replayOnly`: the rail may serve this proof only as the replay of what it paid for; a new hold is refused with it. */
  /** `budget`: what the budgets need of the credential, from the same cached read (server/budgets/hold-budget.ts). */
  { type: "admitted"; end(charged: boolean): Promise<void>; replayOnly?: AppError; budget: BudgetGate } | { type: "refused"; error: AppError };

/**
 * What names this call's payment proof, whatever its rail: the SHA-256 of the header that carries it (and, for an
 * implicit rail whose proof is the bearer every call sends, of its Idempotency-Key: without one no call is another's
 * replay). Null: the proof is nobody's own.
 */
function proofHash(proofs: Headers, rail: Rail): string | null {
  const read = rail.readProof(proofs);
  if (read.type !== "present") return null;
  const key = "implicit" in rail && rail.implicit ? proofs.get("idempotency-key") : "";
  if (key === null) return null;
  return createHash("sha256")
    .update(`${read.header.toLowerCase()}\n${proofs.get(read.header) ?? ""}\n${key}`)
    .digest("hex");
}

export async function admitPaidCall(call: PaidCall, proofs: Headers, rail: Rail, proof: unknown): Promise<Admission> {
  const credentialId = await carriedCredential(proofs, call.sellerId);
  const controls = credentialId ? await credentialControls(credentialId) : null;
  // Plan credit (the implicit rail, the bearer its proof) refuses a revoked credential in its own draw statement, which
  // is exact where this cache could lag a notification; every other rail learns it here.
  if (controls?.revoked && !("implicit" in rail && rail.implicit))
    return {
      type: "refused",
      error: new AppError("invalid_token", {
        reason: "token_invalid",
        detail: "the credential is revoked; register again",
        extra: { credential: credentialId },
      }),
    };
  if (controls?.frozen)
    return {
      type: "refused",
      error: new AppError("credential_frozen", {
        detail: "the person who claimed this agent froze its credential: nothing is paid with it until they unfreeze it",
        extra: { credential: credentialId },
      }),
    };
  // What the budgets need to know, from the same cached read: a credential no budget applies to runs no budget statement.
  const budget: BudgetGate = { credentialId, person: controls?.budgetPerson ?? null, budgeted: controls?.budgeted ?? false };
  const cap = await reserveWalletCap(call, rail, proof, { cacheable: controlsListening() });
  if (cap.type === "refused") return cap;
  // Held for the person above their threshold (only a claimed credential has a person to ask).
  if (controls?.humanId && controls.thresholdMicros !== null && call.amountMicros > controls.thresholdMicros) {
    const { credentialId: id, humanId, thresholdMicros } = controls;
    const approval = await admitOverThreshold({ call, credentialId: id, humanId, thresholdMicros, proofHash: proofHash(proofs, rail) });
    if (approval.type === "held") {
      await cap.release();
      return { type: "refused", error: approval.error };
    }
    if (approval.type === "replay")
      return { type: "admitted", end: async (charged) => void (charged || (await cap.release())), replayOnly: approval.error, budget };
    return { type: "admitted", end: async (charged) => void (charged || (await Promise.all([approval.restore(), cap.release()]))), budget };
  }
  return { type: "admitted", end: async (charged) => void (charged || (await cap.release())), budget };
}
