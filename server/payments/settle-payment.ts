// Settles one payment from its outbox row: submit through the facilitator, then record the result durably.
// Never settles twice: the outbox row is unique per payment and leased; before re-submitting after a crash the
// chain is asked whether the authorization was already used (then the earlier broadcast is recorded instead);
// and EIP-3009 itself refuses a second use of the nonce.
import type { Address, Hex } from "viem";
import { authorizationFate } from "../chain/authorization";
import { env } from "../env";
import { facilitatorInput, type StoredProof } from "./accept-payment";
import { getFacilitator } from "./facilitator";
import { findSettlement, recordSettlementFailure, recordSettlementRetry, recordSettlementSuccess } from "./payments.queries";

export type SettleResult =
  | { type: "settled"; transaction: string; payer: string }
  | { type: "failed"; reason: string }
  /** Not settled yet (transient); the reconciler retries. */
  | { type: "pending"; detail: string }
  /** Nothing to do: no outbox row, or another state already decided. */
  | { type: "noop"; status: string };

const MAX_BACKOFF_MS = 10 * 60_000;

export async function settlePayment(paymentId: string, opts: { retry?: boolean } = {}): Promise<SettleResult> {
  const s = await findSettlement(paymentId);
  if (!s) return { type: "noop", status: "no_settlement" };
  const p = s.payment;
  if (s.status === "succeeded") return { type: "settled", transaction: s.transaction ?? "", payer: p.payer ?? "" };
  if (s.status !== "pending") return { type: "noop", status: s.status };
  const proof = p.proof as unknown as StoredProof;

  if (opts.retry || s.attempts > 1) {
    // A previous attempt may have broadcast before the process died: look before sending again.
    try {
      const fate = await authorizationFate(env().RPC_URL, p.asset as Address, proof.authorization.from as Address, proof.authorization.nonce as Hex);
      if (fate.used && fate.transaction) {
        await recordSettlementSuccess(paymentId, fate.transaction);
        return { type: "settled", transaction: fate.transaction, payer: p.payer ?? "" };
      }
    } catch {
      /* chain unreachable: the facilitator call below will say so */
    }
  }

  const { payload, requirements } = facilitatorInput(p, proof);
  const outcome = await getFacilitator().settle(payload, requirements);
  if (outcome.type === "settled") {
    await recordSettlementSuccess(paymentId, outcome.transaction);
    return { type: "settled", transaction: outcome.transaction, payer: outcome.payer || (p.payer ?? "") };
  }
  if (outcome.type === "failed") {
    await recordSettlementFailure(paymentId, outcome.reason, outcome.transaction);
    return { type: "failed", reason: outcome.reason };
  }
  const backoff = Math.min(MAX_BACKOFF_MS, 2_000 * 2 ** Math.min(s.attempts, 10));
  await recordSettlementRetry(paymentId, outcome.detail, new Date(Date.now() + backoff));
  return { type: "pending", detail: outcome.detail };
}
