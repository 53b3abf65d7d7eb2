// The claim pass: the vouchers charged through every channel collected on chain in one transaction
// (claimWithSignature over many channels, then settle for each seller: their USDC moves to their payTo), run by the
// reconciler on every instance, one claim at a time across all of them.
//
// When: a seller paying gas wants few transactions, and no voucher left unclaimed past the payer's withdraw delay. So a
// claim goes out when the unclaimed calls reach CLAIM_MIN_CALLS, when the oldest unclaimed charge is CLAIM_MAX_AGE old,
// or at once when a payer has started withdrawing (./sync-channels.ts sees it in the contract's logs).
// What: each channel's total is what was captured (charged, less held calls, less prices released after a later
// voucher), never above the latest voucher's ceiling (the table's check) nor the channel's escrow. Held calls are never
// claimed, so a release can always give the price back.
// Once: the decision is a pending row written before anything is signed (the outbox, and the lease: one pending claim
// at most), the transaction's hash is kept before it is sent, and whoever resumes it after a crash asks the chain for
// that transaction first. Sent again, a claim takes nothing twice: the contract's totals are cumulative.
import "server-only";
import { claimBatchTypes } from "@x402/evm";
import type { Hex } from "viem";
import { rpcRequest } from "../../../chain/json-rpc";
import { env } from "../../../env";
import { mirrorChannel } from "./batch.queries";
import {
  claimCandidates,
  confirmClaim,
  failClaim,
  openClaim,
  pendingClaim,
  recordClaimTransaction,
  retryClaimLater,
  takeOverClaim,
  type ClaimCandidate,
  type PendingClaim,
  type StoredClaimRow,
} from "./chain.queries";
import { channelIdOf, receiverAuthorizer, SETTLEMENT_DOMAIN, type ChannelConfig } from "./channel-terms";
import { flushVoucherCaptures } from "./capture-queue";
import { claimCall, gasFor, gasWallet, readChannel, transactionStatus, type ClaimRow } from "./settlement-contract";

/** Unclaimed voucher-paid calls that make a claim worth its gas: at most one claim per this many calls. */
export const CLAIM_MIN_CALLS = 500;
/** Claim whatever is unclaimed once its oldest charge is this old (the seller's cash waits no longer). */
export const CLAIM_MAX_AGE_SECONDS = 3600;
/** Channels per claim transaction (a row costs tens of thousands of gas; a block holds far more). */
const MAX_ROWS = 200;
const LEASE_SECONDS = 120;
const RETRY_SECONDS = 30;

export type ClaimOptions = {
  /** Claim whatever is unclaimed now, whatever the policy says (tests, the bench, an operator). */
  force?: boolean;
  /** Only channels paying these receivers (lower case): a test's or a bench's own sellers in a shared database. */
  receivers?: string[];
  /** Crash tests only: called once the claim's hash is kept, before it is sent; and once it landed, before it is recorded. */
  faults?: { afterHashKept?: () => void; beforeConfirm?: () => void };
};

export type ClaimReport = { channels: number; calls: number; transaction: string } | { pending: true } | { skipped: string };

const toRow = (r: StoredClaimRow): ClaimRow => ({
  config: r.config as unknown as ChannelConfig,
  ceiling: BigInt(r.ceiling),
  signature: r.signature as Hex,
  total: BigInt(r.total),
});

/** The receiver authorizer's ClaimBatch signature over these rows (what claimWithSignature checks). */
export async function signClaim(rows: ClaimRow[]): Promise<Hex> {
  return receiverAuthorizer().signTypedData({
    domain: SETTLEMENT_DOMAIN,
    types: claimBatchTypes,
    primaryType: "ClaimBatch",
    message: { claims: rows.map((r) => ({ channelId: channelIdOf(r.config), maxClaimableAmount: r.ceiling, totalClaimed: r.total })) },
  });
}

/** Whether these unclaimed channels are worth a claim now: enough calls, an old enough charge, or a payer leaving. */
export function claimDue(
  candidates: Pick<ClaimCandidate, "vouchers" | "claimedVouchers" | "heldCalls" | "unclaimedSince" | "channel">[],
  now = Date.now(),
): boolean {
  if (candidates.some((c) => c.channel.withdrawRequestedAt)) return true;
  const calls = candidates.reduce((n, c) => n + Math.max(0, c.vouchers - c.claimedVouchers - c.heldCalls), 0);
  if (calls >= CLAIM_MIN_CALLS) return true;
  return candidates.some((c) => c.unclaimedSince && now - c.unclaimedSince.getTime() >= CLAIM_MAX_AGE_SECONDS * 1000);
}

export async function claimVouchers(opts: ClaimOptions = {}): Promise<ClaimReport> {
  if (!gasWallet()) return { skipped: "no local facilitator to send claims" };
  const inFlight = await pendingClaim();
  if (inFlight) {
    if (inFlight.leaseUntil && inFlight.leaseUntil.getTime() > Date.now()) return { pending: true };
    if (!(await takeOverClaim(inFlight.id, LEASE_SECONDS))) return { pending: true };
    return resume(inFlight, opts);
  }
  // This instance's served calls first, so they are not mistaken for held ones.
  await flushVoucherCaptures();
  const candidates = await claimCandidates(MAX_ROWS, opts.receivers ?? null);
  if (!candidates.length) return { skipped: "nothing unclaimed" };
  const calls = candidates.reduce((n, c) => n + Math.max(0, c.vouchers - c.claimedVouchers - c.heldCalls), 0);
  if (!opts.force && !claimDue(candidates)) return { skipped: `${calls} unclaimed calls; claims wait for ${CLAIM_MIN_CALLS}` };
  const rows: StoredClaimRow[] = [];
  let amount = 0n;
  for (const c of candidates) {
    const ch = c.channel;
    const earned = ch.charged - ch.released - c.heldMicros;
    // Never above the escrow: a payer's finalized withdrawal may have left less than was charged (a loss, not a revert).
    const total = earned < ch.balance ? earned : ch.balance;
    if (total <= ch.claimed || !ch.signature) continue;
    amount += total - ch.claimed;
    const config = {
      payer: ch.payer,
      payerAuthorizer: ch.payerAuthorizer,
      receiver: ch.receiver,
      receiverAuthorizer: ch.receiverAuthorizer,
      token: ch.token,
      withdrawDelay: ch.withdrawDelay,
      salt: ch.salt,
    };
    rows.push({
      channel: ch.id,
      config,
      ceiling: ch.signedMax.toString(),
      signature: ch.signature,
      total: total.toString(),
      vouchers: c.vouchers - c.heldCalls,
    });
  }
  if (!rows.length) return { skipped: "nothing claimable" };
  const id = await openClaim(rows, calls, amount, LEASE_SECONDS);
  if (!id) return { pending: true };
  return submit(id, rows, calls, opts);
}

async function submit(id: string, stored: StoredClaimRow[], calls: number, opts: ClaimOptions): Promise<ClaimReport> {
  const wallet = gasWallet()!;
  const rows = stored.map(toRow);
  const tx = claimCall(rows, await signClaim(rows));
  let gas: bigint;
  try {
    gas = await gasFor(tx);
  } catch (e) {
    const message = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    if (!/revert/i.test(message)) {
      await retryClaimLater(id, message, RETRY_SECONDS);
      return { pending: true };
    }
    // One row the chain refuses would sink them all: refresh each refused channel from the chain, so the next pass
    // builds a claim it takes (a withdrawn escrow caps the total), and drop this one.
    await refreshRefusedRows(stored);
    await failClaim(id, message);
    return { skipped: `claim refused by the chain: ${message}` };
  }
  try {
    const sent = await wallet.sendCall({ ...tx, gas }, async (hash) => {
      await recordClaimTransaction(id, hash);
      opts.faults?.afterHashKept?.();
    });
    if (!sent.success) {
      await failClaim(id, "the claim transaction reverted", sent.transaction);
      return { skipped: "claim reverted" };
    }
    opts.faults?.beforeConfirm?.();
    await confirmClaim(id, sent);
    return { channels: rows.length, calls, transaction: sent.transaction };
  } catch (e) {
    // Sent or not, unknown: the row keeps its hash; whoever resumes it asks the chain before sending again.
    await retryClaimLater(id, e instanceof Error ? e.message.split("\n")[0]! : String(e), RETRY_SECONDS);
    return { pending: true };
  }
}

/** A claim left pending by a crash or a failed send: finished from what the chain says about its transaction. */
async function resume(claim: PendingClaim, opts: ClaimOptions): Promise<ClaimReport> {
  const calls = claim.calls;
  if (claim.transaction) {
    const landed = await transactionStatus(claim.transaction as Hex);
    if (landed?.success) {
      await confirmClaim(claim.id, { transaction: claim.transaction, gasUsed: landed.gasUsed, gasCostWei: landed.gasCostWei });
      return { channels: claim.payload.rows.length, calls, transaction: claim.transaction };
    }
    if (landed) {
      await failClaim(claim.id, "the claim transaction reverted");
      return { skipped: "claim reverted" };
    }
    // Not mined, and still in the node's pool: wait for it rather than pay for a second one.
    const inPool = await rpcRequest<unknown>(env().RPC_URL, "eth_getTransactionByHash", [claim.transaction]).catch(() => null);
    if (inPool) {
      await retryClaimLater(claim.id, "waiting for the claim transaction to be included", RETRY_SECONDS);
      return { pending: true };
    }
  }
  // Never sent, or lost: the same claim again (anything of it that did land is not taken twice).
  return submit(claim.id, claim.payload.rows, calls, opts);
}

async function refreshRefusedRows(rows: StoredClaimRow[]): Promise<void> {
  for (const row of rows) {
    const single = [toRow(row)];
    try {
      await gasFor(claimCall(single, await signClaim(single)));
    } catch {
      const onChain = await readChannel(row.channel as Hex).catch(() => null);
      if (onChain)
        await mirrorChannel(row.channel, {
          balance: onChain.balance,
          totalClaimed: onChain.totalClaimed,
          withdrawRequestedAt: onChain.withdrawRequestedAt ? new Date(onChain.withdrawRequestedAt * 1000) : null,
        });
    }
  }
}
