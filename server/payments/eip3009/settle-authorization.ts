// Charges a held EIP-3009 authorization (either wallet rail): submit it through the facilitator. Never twice:
// before re-submitting after a crash the chain is asked whether the authorization was already used (then the
// earlier broadcast is the settlement), and EIP-3009 itself refuses a second use of the nonce.
import type { Address, Hex } from "viem";
import { authorizationFate } from "../../chain/authorization";
import { env } from "../../env";
import type { HeldPayment, SettleOutcome } from "../rails/rail";
import { facilitatorInput, type StoredAuthorization } from "./authorization";
import { getFacilitator } from "./facilitator";

export async function settleAuthorization(
  p: HeldPayment,
  opts: { retry: boolean; onSubmitted?: (transaction: string | null) => void },
): Promise<SettleOutcome> {
  const stored = p.railData as unknown as StoredAuthorization | null;
  if (!stored?.authorization) return { type: "failed", reason: "no_authorization_stored" };
  if (opts.retry) {
    // A previous attempt may have broadcast before the process died: look before sending again.
    try {
      const a = stored.authorization;
      const fate = await authorizationFate(env().RPC_URL, (p.asset ?? "") as Address, a.from as Address, a.nonce as Hex);
      if (fate.used && fate.transaction) return { type: "settled", transaction: fate.transaction, payer: p.payer ?? undefined };
    } catch {
      /* chain unreachable: the facilitator call below will say so */
    }
  }
  const { payload, requirements } = facilitatorInput(p, stored);
  const outcome = await getFacilitator().settle(payload, requirements, { onSubmitted: opts.onSubmitted });
  if (outcome.type === "settled")
    return {
      type: "settled",
      transaction: outcome.transaction,
      payer: outcome.payer || (p.payer ?? undefined),
      ...(outcome.gasCostWei !== undefined ? { cost: { gasWei: outcome.gasCostWei } } : {}),
    };
  if (outcome.type === "failed") return { type: "failed", reason: outcome.reason, transaction: outcome.transaction };
  return { type: "pending", detail: outcome.detail };
}
