// Reads what one transaction did to a token, from its receipt: whether it is mined and succeeded, where it sits
// in the chain, and its Transfer logs. Used to check a refund the seller sent from their own wallet
// (server/payments/eip3009/record-refund.ts): the platform holds no seller keys, so the chain is the only witness.
import { parseEventLogs, TransactionNotFoundError, TransactionReceiptNotFoundError, type Address, type Hex } from "viem";
import { publicClient } from "./clients";
import { TOKEN_ABI } from "./token";

export type TokenTransfer = { from: Address; to: Address; value: bigint; logIndex: number };

/** Where a mined transaction sits: transactions are ordered by (block, index in block). */
export type ChainPosition = { blockNumber: bigint; transactionIndex: number };

export type TransactionTransfers =
  /** No receipt and the node does not know the hash: a wrong hash, another chain, or not broadcast (yet). */
  | { type: "not_found" }
  /** Known to the node but not in a block yet. */
  | { type: "pending" }
  /** Mined but reverted: nothing moved. */
  | ({ type: "reverted" } & ChainPosition)
  /** Mined and succeeded; `transfers` are the token's Transfer logs in log order (empty if none). */
  | ({ type: "mined"; transfers: TokenTransfer[] } & ChainPosition);

function isMissing(e: unknown): boolean {
  return e instanceof TransactionReceiptNotFoundError || e instanceof TransactionNotFoundError;
}

/**
 * The Transfer logs `token` emitted in transaction `hash`. Only logs emitted by the token contract itself count
 * (any contract can emit an event named Transfer). One block is enough: the receipt is read as the node has it,
 * without waiting for further confirmations. RPC failures throw (the caller decides how to report them).
 */
export async function tokenTransfersIn(rpcUrl: string, token: Address, hash: Hex): Promise<TransactionTransfers> {
  const client = publicClient(rpcUrl);
  let receipt;
  try {
    receipt = await client.getTransactionReceipt({ hash });
  } catch (e) {
    if (!isMissing(e)) throw e;
    // No receipt: tell a transaction waiting in the node's pool from one the node has never seen.
    try {
      await client.getTransaction({ hash });
      return { type: "pending" };
    } catch (e2) {
      if (isMissing(e2)) return { type: "not_found" };
      throw e2;
    }
  }
  const position = { blockNumber: receipt.blockNumber, transactionIndex: receipt.transactionIndex };
  if (receipt.status !== "success") return { type: "reverted", ...position };
  const ours = receipt.logs.filter((l) => l.address.toLowerCase() === token.toLowerCase());
  const transfers = parseEventLogs({ abi: TOKEN_ABI, eventName: "Transfer", logs: ours }).map((l) => {
    const args = l.args as unknown as { from: Address; to: Address; value: bigint };
    return { from: args.from, to: args.to, value: args.value, logIndex: l.logIndex };
  });
  return { type: "mined", ...position, transfers };
}
