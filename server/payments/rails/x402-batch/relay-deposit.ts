// A deposit payload's on-chain part: the payer's ERC-3009 authorization moves its deposit into the channel through the
// collector, in a transaction our gas wallet sends (x402's deposits are gasless for the payer). It happens before the
// call's voucher is spent, and it stands whatever the call does: the escrow is the payer's, a released call costs it
// nothing, and what is never charged goes back to it (a refund, or its own withdrawal after the delay).
//
// Once per authorization, across instances: the relay is a row keyed by the authorization's nonce (unique on chain),
// leased to whoever relays it; copies of the payload arriving meanwhile are told to wait, and one arriving after it
// landed finds it done. The call is simulated first (eth_estimateGas), so an authorization the chain refuses costs no
// gas. A relay whose instance died is taken over after its lease, asking the token first whether it already landed.
import "server-only";
import { encodeAbiParameters, keccak256, type Hex } from "viem";
import { RpcError } from "../../../chain/json-rpc";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { proofRefused } from "../../proof-refused";
import type { PaidCall } from "../rail";
import type { ChannelRow } from "./batch.queries";
import { confirmDeposit, dropDeposit, lockDeposit } from "./chain.queries";
import { DEPOSIT_FLOOR_CALLS } from "./channel-terms";
import { refreshChannel } from "./channels";
import type { BatchProof } from "./read-proof";
import { authorizationUsed, depositCall, gasFor, gasWallet } from "./settlement-contract";

export type Deposited = { type: "deposited"; channel: ChannelRow; amount: bigint; transaction: Hex | null };
export type DepositRefused = { type: "refused"; error: AppError };

const refused = (reason: string, detail: string): DepositRefused => ({ type: "refused", error: proofRefused(reason, detail) });

/** A revert of the deposit's simulation, as a reason the payer can act on. */
function whyRefused(message: string): string {
  if (/used or canceled|authorization is used/i.test(message)) return "authorization_used";
  if (/exceeds balance|insufficient/i.test(message)) return "insufficient_funds";
  if (/not yet valid|is expired/i.test(message)) return "authorization_window";
  if (/signature/i.test(message)) return "invalid_signature";
  return "deposit_simulation_failed";
}

export async function relayDeposit(call: PaidCall, proof: BatchProof): Promise<Deposited | DepositRefused> {
  if (proof.payload.type !== "deposit") throw new Error("not a deposit payload");
  const { deposit } = proof.payload;
  const amount = BigInt(deposit.amount);
  const auth = deposit.authorization.erc3009Authorization;
  // Our gas for a deposit: worth it only for a channel that pays for a few calls at least.
  if (amount < call.amountMicros * DEPOSIT_FLOOR_CALLS)
    return refused(
      "deposit_too_small",
      `a deposit must cover at least ${DEPOSIT_FLOOR_CALLS} calls of this price (${call.amountMicros * DEPOSIT_FLOOR_CALLS} units)`,
    );
  const wallet = gasWallet();
  if (!wallet)
    return {
      type: "refused",
      error: new AppError("payment_provider_unavailable", { detail: "deposits are relayed by the local facilitator, which is not configured" }),
    };
  const nonce = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [proof.channelId, BigInt(auth.salt)]));
  const id = `btx_${nonce.slice(2)}`;
  const lock = await lockDeposit(
    id,
    { channel: proof.channelId, payer: proof.config.payer.toLowerCase(), amount: deposit.amount },
    amount,
    env().PAYMENT_LEASE_SECONDS,
  );
  if (lock === "pending")
    return {
      type: "refused",
      error: new AppError("payment_in_progress", { detail: "this deposit is being relayed for another copy of the request; retry shortly" }),
    };
  if (lock === "confirmed") return { type: "deposited", channel: (await refreshChannel(proof.channelId, proof.config))!, amount, transaction: null };

  const tx = depositCall(proof.config, amount, auth as { validAfter: string; validBefore: string; salt: Hex; signature: Hex });
  let gas: bigint;
  try {
    gas = await gasFor(tx);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // Relayed before a crash by an instance whose lease ran out: it landed, nothing to send.
    if (await authorizationUsed(proof.config.payer, nonce).catch(() => false)) {
      await confirmDeposit(id, { transaction: null });
      return { type: "deposited", channel: (await refreshChannel(proof.channelId, proof.config))!, amount, transaction: null };
    }
    await dropDeposit(id);
    if (e instanceof RpcError && /revert/i.test(message)) return refused(whyRefused(message), `the chain refuses this deposit (${message.split("\n")[0]})`);
    return {
      type: "refused",
      error: new AppError("payment_provider_unavailable", { detail: "the chain could not be asked about this deposit; retry with backoff" }),
    };
  }
  let sent: Awaited<ReturnType<typeof wallet.sendCall>>;
  try {
    sent = await wallet.sendCall({ ...tx, gas });
  } catch {
    // It may or may not have reached the node: the row's lease runs out and a retry asks the token before sending again.
    return {
      type: "refused",
      error: new AppError("payment_provider_unavailable", { detail: "the deposit could not be confirmed yet; retry the same request shortly" }),
    };
  }
  if (!sent.success) {
    await dropDeposit(id);
    return refused("deposit_reverted", `the deposit transaction ${sent.transaction} reverted`);
  }
  await confirmDeposit(id, sent);
  return { type: "deposited", channel: (await refreshChannel(proof.channelId, proof.config))!, amount, transaction: sent.transaction };
}
