// The wallet rails' refund (x402 and MPP: their `refund` capability), recorded from the seller console. Their payments
// settle on chain into the seller's payTo wallet and the platform holds no seller keys, so the seller sends the USDC
// back from that wallet themselves and pastes the transaction hash here. We record the refund only once the chain shows it:
//   - the transaction is mined and succeeded (pending or unknown: refused, "try again after it is mined"; nothing
//     is written and nothing polls, the seller retries; one block is enough, no extra confirmations are awaited);
//   - it comes after the payment's settlement (a transfer made before the payment cannot be its refund);
//   - it has a USDC Transfer log from the payment's payTo to its payer of at least the payment's amount, not
//     already recorded as another payment's refund (the first such log in log order is taken, so one batch
//     transaction can refund several payments, one log each).
// A larger transfer is accepted but the ledger records the payment's amount: the ledger reverses what was
// charged, and revenue per payment cannot go below zero; anything above (goodwill, gas compensation) is between
// the seller and the payer, kept in the audit row (`transferredMicros`). A smaller one is refused: partial
// refunds are not recorded (a payment is refunded once, in full, and then it is terminal).
// The state move, the ledger row and the audit row are one transaction (refund.queries.ts); the unique
// (transaction, log_index) index makes a transfer refund at most one payment whatever the races.
import type { Hex } from "viem";
import { tokenTransfersIn, type ChainPosition, type TokenTransfer } from "../../chain/transfers";
import { env } from "../../env";
import { AppError, invalidParameter } from "../../errors";
import { microsToUsd } from "../../lib/money";
import type { RefundOutcome, Refunds, RefundRequest } from "../rails/rail";
import { findPaymentForRefund, findRefundedLogs, insertRefund, type RefundablePayment } from "./refund.queries";

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export type RecordedRefund = {
  paymentId: string;
  status: "refunded";
  amountUsd: string;
  transaction: string;
  logIndex: number;
  recordedAt: string;
  /** True when this exact transaction was already recorded for this payment (a retried or double submit). */
  alreadyRecorded: boolean;
};

function invalidTransfer(detail: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_refund_transaction", detail, extra: { parameter: "transaction" } });
}

/** Why a payment in `status` cannot be refunded, naming the state. */
function notRefundable(p: Pick<RefundablePayment, "id" | "status">, why: string): AppError {
  return new AppError("payment_not_refundable", { detail: `payment ${p.id} is ${p.status}: ${why}`, extra: { payment_id: p.id, status: p.status } });
}

/**
 * Settled or consumed: null (go on). Already refunded by this same transaction: the first result (the operation
 * is retried by people double-clicking and by networks; a duplicate is not an error). Anything else: refused.
 */
function refundableOrPrevious(p: RefundablePayment, hash: string): RecordedRefund | null {
  switch (p.status) {
    case "settled":
    case "consumed":
      return null;
    case "refunded": {
      const refund = p.ledgerEntries[0];
      if (refund && refund.transaction === hash && refund.logIndex !== null)
        return {
          paymentId: p.id,
          status: "refunded",
          amountUsd: microsToUsd(refund.amountMicros),
          transaction: hash,
          logIndex: refund.logIndex,
          recordedAt: refund.createdAt.toISOString(),
          alreadyRecorded: true,
        };
      throw notRefundable(p, refund?.transaction ? `it was already refunded by transaction ${refund.transaction}` : "it was already refunded");
    }
    case "challenged":
      throw notRefundable(p, "it was never paid, so there is nothing to refund");
    case "incomplete":
      throw notRefundable(p, "its card checkout is not paid yet, so there is nothing to refund");
    case "verified":
      throw notRefundable(p, "it is not settled yet; a refund can be recorded once it is settled");
    case "released":
      throw notRefundable(p, "it was released without charge, so there is nothing to refund");
    case "failed":
      throw notRefundable(p, "its settlement failed, so nothing was charged");
  }
}

/** Chain reads fail loudly but retryably: an RPC outage is not the seller's mistake. */
async function readChain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    console.error("[refund] chain read failed:", e instanceof Error ? e.message.split("\n")[0] : e);
    throw new AppError("payment_provider_unavailable", { detail: "the chain could not be read right now; try again in a moment", cause: e });
  }
}

const before = (a: ChainPosition, b: ChainPosition) =>
  a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.transactionIndex <= b.transactionIndex);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The Transfer logs that can be this payment's refund, or a precise refusal. */
function matchingTransfers(p: RefundablePayment & { payer: string; payTo: string }, hash: string, transfers: TokenTransfer[]): TokenTransfer[] {
  const amount = `$${microsToUsd(p.amountMicros)}`;
  if (transfers.length === 0) throw invalidTransfer(`transaction ${hash} moved no USDC`);
  const fromPayTo = transfers.filter((t) => same(t.from, p.payTo));
  if (fromPayTo.length === 0)
    throw invalidTransfer(`transaction ${hash} has no USDC transfer from the payment's payTo ${p.payTo}; send the refund from that wallet`);
  const toPayer = fromPayTo.filter((t) => same(t.to, p.payer));
  if (toPayer.length === 0) throw invalidTransfer(`transaction ${hash} has no USDC transfer from ${p.payTo} to the payment's payer ${p.payer}`);
  const enough = toPayer.filter((t) => t.value >= p.amountMicros);
  if (enough.length === 0) {
    const largest = toPayer.reduce((m, t) => (t.value > m ? t.value : m), 0n);
    throw invalidTransfer(
      `the USDC transfer from ${p.payTo} to ${p.payer} in transaction ${hash} is $${microsToUsd(largest)}, less than the payment's ${amount} (partial refunds are not recorded)`,
    );
  }
  return enough;
}

/** A racer moved the payment after our first read: the same transaction is the same refund; anything else is refused. */
async function afterRace(sellerId: string, paymentId: string, hash: string): Promise<RecordedRefund> {
  const now = await findPaymentForRefund(sellerId, paymentId);
  if (!now) throw new AppError("not_found", { detail: "no such payment" });
  const again = refundableOrPrevious(now, hash);
  if (again) return again;
  throw notRefundable(now, "its state changed while the refund was being recorded; try again");
}

export async function recordRefund(input: {
  sellerId: string;
  actorId: string | null;
  paymentId: string;
  transaction: string;
  reason?: string;
}): Promise<RecordedRefund> {
  const raw = input.transaction.trim();
  if (!TX_HASH.test(raw)) throw invalidParameter("transaction", "transaction must be a transaction hash: 0x followed by 64 hex digits");
  // Stored lower-case, so the unique (transaction, log_index) index cannot be dodged by changing the case.
  const hash = raw.toLowerCase() as Hex;

  const payment = await findPaymentForRefund(input.sellerId, input.paymentId);
  // Another seller's payment id matches nothing: indistinguishable from a missing one.
  if (!payment) throw new AppError("not_found", { detail: "no such payment" });
  const previous = refundableOrPrevious(payment, hash);
  if (previous) return previous;
  // A wallet rail's payment moved its token on chain from the payer to payTo (the rail wrote both, and the token, when
  // it locked it); that transfer is what a refund here reverses.
  if (!payment.payer || !payment.payTo || !payment.asset)
    throw new AppError("invalid_request", { detail: `payment ${payment.id} (rail ${payment.rail}) records no on-chain transfer to reverse` });
  const p = { ...payment, payer: payment.payer, payTo: payment.payTo, asset: payment.asset as Hex };

  const rpcUrl = env().RPC_URL;
  const refund = await readChain(() => tokenTransfersIn(rpcUrl, p.asset, hash));
  if (refund.type === "not_found")
    throw invalidTransfer(`transaction ${hash} was not found on chain yet; try again after it is mined (and check it was sent on Base)`);
  if (refund.type === "pending") throw invalidTransfer(`transaction ${hash} is pending: not found on chain yet; try again after it is mined`);
  if (refund.type === "reverted") throw invalidTransfer(`transaction ${hash} reverted on chain (block ${refund.blockNumber}): no USDC moved`);

  // A transfer mined before the payment was settled cannot be its refund. (A settlement transaction the chain does
  // not know, e.g. the demo's chain was restarted under a kept database, cannot be ordered against: not checked.)
  if (p.transaction) {
    const settlement = await readChain(() => tokenTransfersIn(rpcUrl, p.asset, p.transaction as Hex));
    if ((settlement.type === "mined" || settlement.type === "reverted") && before(refund, settlement))
      throw invalidTransfer(`transaction ${hash} was mined before the payment's settlement (${p.transaction}), so it cannot be its refund`);
  }

  const candidates = matchingTransfers(p, hash, refund.transfers);
  // Each pass either records, or learns that a log it chose was taken meanwhile and moves on to the next.
  for (let pass = 0; pass <= candidates.length; pass++) {
    const claimed = await findRefundedLogs(hash);
    const transfer = candidates.find((t) => !claimed.some((c) => c.logIndex === t.logIndex));
    if (!transfer) {
      // A racer recorded this very refund after our first read of the payment: the first result, not an error.
      if (claimed.some((c) => c.paymentId === p.id)) return afterRace(input.sellerId, p.id, hash);
      const owner = claimed.find((c) => candidates.some((t) => t.logIndex === c.logIndex));
      // Name the other payment only to its own seller.
      const which = owner && owner.sellerId === input.sellerId ? `payment ${owner.paymentId}` : "another payment";
      throw invalidTransfer(`the USDC transfer from ${p.payTo} to ${p.payer} in transaction ${hash} is already recorded as the refund of ${which}`);
    }
    const res = await insertRefund({
      sellerId: input.sellerId,
      actorId: input.actorId,
      paymentId: p.id,
      amountMicros: p.amountMicros,
      transferredMicros: transfer.value,
      transaction: hash,
      logIndex: transfer.logIndex,
      reason: input.reason,
    });
    if (res.type === "recorded")
      return {
        paymentId: p.id,
        status: "refunded",
        amountUsd: microsToUsd(p.amountMicros),
        transaction: hash,
        logIndex: transfer.logIndex,
        recordedAt: res.createdAt.toISOString(),
        alreadyRecorded: false,
      };
    if (res.type === "not_refundable") return afterRace(input.sellerId, p.id, hash);
    // transfer_taken: another payment's refund took this log; look again.
  }
  throw invalidTransfer(`the USDC transfer from ${p.payTo} to ${p.payer} in transaction ${hash} is already recorded as the refund of another payment`);
}

/** The refund capability of both wallet rails: the seller supplies the transaction they sent the money back with. */
export const WALLET_REFUND: Refunds["refund"] = {
  needs: "transaction",
  async refund(r: RefundRequest): Promise<RefundOutcome> {
    if (r.transaction === undefined)
      throw invalidParameter("transaction", "send the refund on chain from your payTo wallet to the payer, then give its transaction hash");
    return recordRefund({ sellerId: r.sellerId, actorId: r.actorId, paymentId: r.paymentId, transaction: r.transaction, reason: r.reason });
  },
};
