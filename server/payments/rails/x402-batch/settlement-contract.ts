// The settlement contract (x402's batch-settlement channels; ours is contracts/X402BatchSettlement.sol, placed where
// @x402/evm expects it) as this rail uses it: read a channel, relay a payer's deposit, claim vouchers in batches and
// sweep them to the sellers, read its logs. Transactions go out from the local facilitator's gas wallet, sharing its
// nonces with the exact scheme's settlements; reads and simulations are single JSON-RPC calls.
import "server-only";
import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { decodeEventLog, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, type Abi, type Address, type Hex } from "viem";
import settlement from "../../../../contracts/X402BatchSettlement.json";
import { USDC_ADDRESS } from "../../../chain/config";
import { TOKEN_ABI } from "../../../chain/token";
import { ethCall, rpcRequest } from "../../../chain/json-rpc";
import { env } from "../../../env";
import { getFacilitator } from "../../eip3009/facilitator";
import { LocalFacilitator } from "../../eip3009/local-facilitator";
import type { ChannelConfig } from "./channel-terms";

const ABI = settlement.abi as Abi;
const NOBODY: Address = "0x0000000000000000000000000000000000000000";

/** The channel as the contract holds it: escrow, claimed total, and when a timed withdrawal started (0: none). */
export type OnChainChannel = { balance: bigint; totalClaimed: bigint; withdrawRequestedAt: number };

/** One row of a claim: the voucher (the channel's config and the ceiling the payer signed) and the total to reach. */
export type ClaimRow = { config: ChannelConfig; ceiling: bigint; signature: Hex; total: bigint };

/** The gas wallet transactions go out from: the local facilitator's (a remote facilitator relays no batch-settlement here). */
export function gasWallet(): LocalFacilitator | null {
  const f = getFacilitator();
  return f instanceof LocalFacilitator ? f : null;
}

async function view<T>(functionName: string, args: unknown[]): Promise<T> {
  const data = encodeFunctionData({ abi: ABI, functionName, args });
  const out = await ethCall(env().RPC_URL, { from: NOBODY, to: BATCH_SETTLEMENT_ADDRESS, data });
  return decodeFunctionResult({ abi: ABI, functionName, data: out }) as T;
}

export async function readChannel(channelId: Hex): Promise<OnChainChannel> {
  const [[balance, totalClaimed], [, initiatedAt]] = await Promise.all([
    view<[bigint, bigint]>("channels", [channelId]),
    view<[bigint, number]>("pendingWithdrawals", [channelId]),
  ]);
  return { balance, totalClaimed, withdrawRequestedAt: Number(initiatedAt) };
}

/** deposit(config, amount, collector, collectorData) through the ERC-3009 collector, with the payer's authorization. */
export function depositCall(
  config: ChannelConfig,
  amount: bigint,
  auth: { validAfter: string; validBefore: string; salt: Hex; signature: Hex },
): { to: Address; data: Hex } {
  const collectorData = encodeAbiParameters(
    [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes" }],
    [BigInt(auth.validAfter), BigInt(auth.validBefore), BigInt(auth.salt), auth.signature],
  );
  return {
    to: BATCH_SETTLEMENT_ADDRESS,
    data: encodeFunctionData({ abi: ABI, functionName: "deposit", args: [config, amount, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, collectorData] }),
  };
}

const claimTuples = (rows: ClaimRow[]) =>
  rows.map((r) => ({ voucher: { channel: r.config, maxClaimableAmount: r.ceiling }, signature: r.signature, totalClaimed: r.total }));

/**
 * One transaction: claimWithSignature over the rows (the receiver authorizer's ClaimBatch signature), then settle for
 * every receiver the rows name, so what was claimed reaches the sellers in the same transaction.
 */
export function claimCall(rows: ClaimRow[], authorizerSignature: Hex): { to: Address; data: Hex } {
  const receivers = [...new Set(rows.map((r) => r.config.receiver.toLowerCase()))];
  const calls = [
    encodeFunctionData({ abi: ABI, functionName: "claimWithSignature", args: [claimTuples(rows), authorizerSignature] }),
    ...receivers.map((receiver) => encodeFunctionData({ abi: ABI, functionName: "settle", args: [receiver, USDC_ADDRESS] })),
  ];
  return { to: BATCH_SETTLEMENT_ADDRESS, data: encodeFunctionData({ abi: ABI, functionName: "multicall", args: [calls] }) };
}

/**
 * The gas a call needs, which is also its simulation: a call that would revert answers why (an RpcError, its reason in
 * the message) without anything sent. A quarter on top, since the state may move a little before it lands.
 */
export async function gasFor(call: { to: Address; data: Hex }): Promise<bigint> {
  // Deposits, claims and settles may be sent by anyone: the simulated sender does not matter.
  const estimate = await rpcRequest<Hex>(env().RPC_URL, "eth_estimateGas", [{ from: NOBODY, to: call.to, data: call.data }]);
  return (BigInt(estimate) * 5n) / 4n;
}

/** A transaction's receipt status: true mined and succeeded, false mined and reverted, null not (yet) mined. */
export async function transactionStatus(hash: Hex): Promise<{ success: boolean; gasUsed: bigint; gasCostWei: bigint } | null> {
  const r = await rpcRequest<{ status: string; gasUsed: Hex; effectiveGasPrice: Hex } | null>(env().RPC_URL, "eth_getTransactionReceipt", [hash]);
  if (!r) return null;
  return { success: r.status === "0x1", gasUsed: BigInt(r.gasUsed), gasCostWei: BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice) };
}

/** Channels whose escrow or withdrawal changed in blocks (from, to]: deposits, refunds, withdrawals, closings. */
export async function channelsTouched(fromBlock: bigint, toBlock: bigint): Promise<Hex[]> {
  if (toBlock <= fromBlock) return [];
  const logs = await rpcRequest<{ topics: Hex[]; data: Hex }[]>(env().RPC_URL, "eth_getLogs", [
    { address: BATCH_SETTLEMENT_ADDRESS, fromBlock: `0x${(fromBlock + 1n).toString(16)}`, toBlock: `0x${toBlock.toString(16)}` },
  ]);
  const ids = new Set<Hex>();
  for (const log of logs) {
    try {
      const e = decodeEventLog({ abi: ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data });
      const args = e.args as { channelId?: Hex };
      if (e.eventName !== "Claimed" && e.eventName !== "Settled" && args.channelId) ids.add(args.channelId.toLowerCase() as Hex);
    } catch {
      /* an event of another shape: not one that moves escrow */
    }
  }
  return [...ids];
}

/** Whether the token has spent this ERC-3009 authorization (a deposit relayed before a crash did land). */
export async function authorizationUsed(authorizer: Address, nonce: Hex): Promise<boolean> {
  const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: "authorizationState", args: [authorizer, nonce] });
  const out = await ethCall(env().RPC_URL, { from: NOBODY, to: USDC_ADDRESS, data });
  return decodeFunctionResult({ abi: TOKEN_ABI, functionName: "authorizationState", data: out }) as boolean;
}

export async function latestBlock(): Promise<bigint> {
  return BigInt(await rpcRequest<Hex>(env().RPC_URL, "eth_blockNumber", []));
}
