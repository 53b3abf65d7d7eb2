// From a batch-settlement payload to a held voucher for exactly this call, or the answer to give.
// In memory first (no I/O): the 402's signed payment id binds the payload to this request, at its price; the channel's
// config is one we offered and hashes to its id; the voucher is its payer authorizer's signature over the ceiling; and,
// where this instance knows the channel, the ceiling is its charged total plus the price, within its escrow.
// Then a deposit payload's deposit is relayed on chain (./relay-deposit.ts), and the voucher is spent by one statement
// (batch.queries.ts spendVoucher), which decides for every instance at once. Any refusal is decided on a fresh read of
// the channel, never on this instance's copy; a client whose base is off gets x402's corrective 402.
import "server-only";
import type { Hex } from "viem";
import { NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { heldByError, paymentStateError, requestMismatch, sameRequest, termsChanged } from "../../payment-state";
import { findPayment, findPaymentByLockKey, type PaymentRow } from "../../payments.queries";
import { proofRefused } from "../../proof-refused";
import { challengeTermsOf } from "../../challenges.queries";
import { replayOf } from "../../replay";
import type { AcceptOutcome, HeldPayment, PaidCall } from "../rail";
import { RAIL, spendVoucher, type ChannelRow } from "./batch.queries";
import { configProblem, voucherSignedBy } from "./channel-terms";
import { cachedChannel, loadChannel, rememberChannel } from "./channels";
import { correctiveRequired, paymentResponse } from "./offer";
import type { BatchProof } from "./read-proof";
import { relayDeposit, type Deposited } from "./relay-deposit";

type Bound = { paymentId: string; terms: NonNullable<ReturnType<typeof challengeTermsOf>>["terms"]; expired: boolean; lockKey: string };

const invalid = (reason: string, detail: string, extra?: Record<string, unknown>): AcceptOutcome => ({
  type: "refused",
  error: proofRefused(reason, detail, extra),
});

/** The voucher's lock: what is spent (this channel's step to this ceiling), whichever request carried it. */
export const voucherLockKey = (channelId: string, ceiling: bigint) => `${RAIL}:${channelId}:${ceiling}`;

/** The PAYMENT-RESPONSE of each held voucher, made when it was spent, sent with the answer that captures it. */
export const receipts = new WeakMap<HeldPayment, Record<string, string>>();

/** Everything checked without I/O, remembered per proof (the early start asks first, accept reuses it). */
const verdicts = new WeakMap<BatchProof, Bound | AcceptOutcome>();

export function verifyInMemory(call: PaidCall, proof: BatchProof): Bound | AcceptOutcome {
  const known = verdicts.get(proof);
  if (known) return known;
  const verdict = verify(call, proof);
  verdicts.set(proof, verdict);
  return verdict;
}

function verify(call: PaidCall, proof: BatchProof): Bound | AcceptOutcome {
  // Vouchers pay calls: a purchase's credit is granted by the charge of a rail that settles each payment.
  if (call.purpose !== "call") return invalid("scheme_not_for_purchases", "batch-settlement pays data calls; pay a plan purchase with the exact scheme or MPP");
  if (proof.payload.type === "refund")
    return invalid(
      "refund_not_offered",
      "this storefront does not take refund payloads; unclaimed escrow returns to the payer with initiateWithdraw, then finalizeWithdraw after the channel's withdrawDelay",
    );
  const e = proof.accepted.extra ?? {};
  const paymentId = typeof e.paymentId === "string" ? e.paymentId : null;
  const signed = paymentId ? challengeTermsOf(call.sellerId, paymentId) : null;
  if (!paymentId || !signed)
    return invalid("challenge_missing", "the accepted requirements carry no payment id of this storefront's 402; pay the 402 this request returns");
  const { terms, expired } = signed;
  if (!sameRequest(terms, call)) return { type: "refused", error: requestMismatch(paymentId) };
  if (terms.purchase) return invalid("scheme_not_for_purchases", "batch-settlement pays data calls, not plan purchases");
  if (
    terms.amountMicros !== call.amountMicros ||
    BigInt(proof.accepted.amount) !== call.amountMicros ||
    proof.accepted.payTo.toLowerCase() !== call.payTo.toLowerCase()
  )
    return { type: "refused", error: termsChanged(call.purpose, paymentId) };
  if (proof.accepted.asset.toLowerCase() !== USDC_ADDRESS.toLowerCase()) return invalid("asset_unsupported", "batch-settlement is paid in USDC on Base");
  const problem = configProblem(proof.config, proof.channelId, call.payTo);
  if (problem) return invalid("channel_config_mismatch", problem);
  if (!voucherSignedBy(proof.config.payerAuthorizer, proof.channelId, proof.ceiling, proof.payload.voucher.signature as Hex))
    return invalid(
      "invalid_voucher_signature",
      "the voucher is not the channel's payerAuthorizer's EIP-712 signature over its channel and ceiling (65 bytes, low s)",
    );
  return { paymentId, terms, expired, lockKey: voucherLockKey(proof.channelId, proof.ceiling) };
}

/** Where this instance's copy of the channel says the voucher fits (no I/O; the statement decides). */
export function fitsCachedChannel(call: PaidCall, proof: BatchProof): boolean {
  const c = cachedChannel(proof.channelId);
  return !!c && !c.withdrawRequestedAt && c.charged + call.amountMicros === proof.ceiling && proof.ceiling <= c.balance;
}

export async function acceptBatch(call: PaidCall, proof: BatchProof): Promise<AcceptOutcome> {
  const bound = verifyInMemory(call, proof);
  if ("type" in bound) return bound;
  if (bound.expired) {
    const replay = await replayOfVoucher(call, bound);
    return replay
      ? { type: "replay", payment: replay }
      : invalid("challenge_expired", "the challenge expired; request a fresh 402", { payment_id: bound.paymentId });
  }
  let deposited: Deposited | null = null;
  if (proof.payload.type === "deposit") {
    const d = await relayDeposit(call, proof);
    if (d.type === "refused") return { type: "refused", error: d.error };
    deposited = d;
  }
  return spend(call, proof, bound, deposited);
}

async function replayOfVoucher(call: PaidCall, bound: Bound, row?: PaymentRow | null): Promise<PaymentRow | null> {
  const holder = row === undefined ? await findPaymentByLockKey(bound.lockKey) : row;
  // The voucher (its signature verified above) for the same 402's payment id: the very proof that paid this request.
  return replayOf(holder, call, (r) => r.rail === RAIL && r.id === bound.paymentId && r.lockKey === bound.lockKey);
}

/** Why this channel cannot take this voucher now, or null. */
function misfit(channel: ChannelRow, call: PaidCall, proof: BatchProof): "withdrawing" | "base" | "balance" | null {
  if (channel.withdrawRequestedAt) return "withdrawing";
  if (channel.charged + call.amountMicros !== proof.ceiling) return "base";
  if (proof.ceiling > channel.balance) return "balance";
  return null;
}

async function spend(call: PaidCall, proof: BatchProof, bound: Bound, deposited: Deposited | null): Promise<AcceptOutcome> {
  // This instance's copy first; a fresh read whenever the copy would refuse, or the statement found the row moved.
  let channel: ChannelRow | null = deposited?.channel ?? cachedChannel(proof.channelId) ?? null;
  let fresh = !!deposited;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!channel || (!fresh && misfit(channel, call, proof))) {
      channel = await loadChannel(proof.channelId, proof.config);
      fresh = true;
      if (!channel)
        return invalid("channel_not_found", "no funded channel for this voucher: open one with a deposit payload (the official client does on its first call)");
    }
    const why = misfit(channel, call, proof);
    if (why) return refuse(call, proof, bound, channel, why);
    const r = await spendVoucher({
      paymentId: bound.paymentId,
      sellerId: call.sellerId,
      channelId: proof.channelId,
      amount: call.amountMicros,
      ceiling: proof.ceiling,
      signature: proof.payload.voucher.signature,
      lockKey: bound.lockKey,
      terms: bound.terms,
      payTo: call.payTo,
      network: NETWORK,
      asset: USDC_ADDRESS,
      transport: call.transport ?? "http",
      leaseSeconds: env().PAYMENT_LEASE_SECONDS,
    });
    if (r.type === "spent") return held(call, proof, bound, channel, r, deposited);
    if (r.type === "voucher_taken") return taken(call, bound);
    if (r.type === "payment_taken") {
      const row = await findPayment(call.sellerId, bound.paymentId);
      const replay = await replayOfVoucher(call, bound, row);
      if (replay) return { type: "replay", payment: replay };
      return { type: "refused", error: row ? paymentStateError(row) : new AppError("payment_in_progress", { detail: "retry shortly" }) };
    }
    // The row moved since it was read (another request's voucher, a release, a withdrawal seen): read it again.
    channel = null;
  }
  return { type: "refused", error: new AppError("payment_in_progress", { detail: "the channel is busy with other calls; retry shortly" }) };
}

function held(
  call: PaidCall,
  proof: BatchProof,
  bound: Bound,
  channel: ChannelRow,
  spent: { payer: string; balance: bigint; claimed: bigint },
  deposited: Deposited | null,
): AcceptOutcome {
  const after: ChannelRow = {
    ...channel,
    charged: proof.ceiling,
    signedMax: channel.signedMax > proof.ceiling ? channel.signedMax : proof.ceiling,
    balance: spent.balance,
    claimed: spent.claimed,
  };
  rememberChannel(after);
  const payment: HeldPayment = {
    id: bound.paymentId,
    sellerId: call.sellerId,
    amountMicros: call.amountMicros,
    payTo: call.payTo,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payer: spent.payer,
    railData: { channel: proof.channelId, cumulative: proof.ceiling.toString() },
  };
  receipts.set(payment, paymentResponse(spent.payer, call.amountMicros, after, deposited && { transaction: deposited.transaction, amount: deposited.amount }));
  return { type: "held", hold: { rail: RAIL, payment } };
}

/** Someone holds this voucher's lock: the very proof that paid this request (served again), or another's hold. */
async function taken(call: PaidCall, bound: Bound, known?: PaymentRow | null): Promise<AcceptOutcome> {
  const holder = known === undefined ? await findPaymentByLockKey(bound.lockKey) : known;
  const replay = await replayOfVoucher(call, bound, holder);
  if (replay) return { type: "replay", payment: replay };
  if (holder) return { type: "refused", error: heldByError(holder, call) };
  return { type: "refused", error: new AppError("payment_in_progress", { detail: "retry shortly" }) };
}

async function refuse(call: PaidCall, proof: BatchProof, bound: Bound, channel: ChannelRow, why: "withdrawing" | "base" | "balance"): Promise<AcceptOutcome> {
  if (why === "withdrawing")
    return invalid("channel_withdrawing", "the payer started withdrawing this channel's escrow: it takes no more vouchers; open a new channel (another salt)");
  if (why === "balance")
    return invalid(
      "cumulative_exceeds_balance",
      `the voucher's ceiling ${proof.ceiling} exceeds the channel's escrow ${channel.balance}: deposit more (a deposit payload)`,
      {
        channel_balance: channel.balance.toString(),
      },
    );
  // Not signed on the charged total. A copy of the very proof that took this step (the same 402's payment id): served
  // again once charged, else told to wait. Anything else is a client whose base is off: the corrective 402.
  if (proof.ceiling <= channel.charged) {
    const holder = await findPaymentByLockKey(bound.lockKey);
    if (holder?.id === bound.paymentId) return taken(call, bound, holder);
  }
  return {
    type: "refused",
    error: new AppError("payment_required", {
      reason: "cumulative_amount_mismatch",
      detail: `the voucher's ceiling must be the channel's charged total (${channel.charged}) plus the price (${call.amountMicros}); PAYMENT-REQUIRED carries the channel's state and its latest voucher to resync from`,
      extra: { payment_id: bound.paymentId, charged_cumulative: channel.charged.toString() },
      headers: { "PAYMENT-REQUIRED": correctiveRequired(call, { paymentId: bound.paymentId, expiresAt: bound.terms.expiresAt }, channel) },
    }),
  };
}
