// One payment as its console page shows it: the amount and state, the timeline of its states (from the times the
// row, its outbox row and its ledger rows keep), the request it is bound to, the on-chain transactions with links in
// the seller's explorer format, what settling cost, and the audit rows about it (a recorded refund).
import { explainFailure } from "../analytics/explain-refusal";
import { listAuditLog } from "../audit/list-audit-log";
import { AppError } from "../errors";
import { formatUsd, microsToUsd, weiToEth } from "../lib/money";
import { chainName } from "../chain/explorer-links";
import { explorerLinksFor } from "../settings/explorer-links-for";
import { cardView } from "./list-seller-payments";
import { RAILS } from "../payments/rails";
import { refundInput, refundsInPart } from "../payments/refund-payment";
import { requestBinding } from "../payments/request-binding";
import { findPaymentDetail } from "./payment-detail.queries";

type Step = { state: string; at: string | null; note: string | null };

export async function getPaymentDetail(sellerId: string, paymentId: string) {
  const [p, links] = await Promise.all([findPaymentDetail(sellerId, paymentId), explorerLinksFor(sellerId)]);
  // Another seller's payment id is indistinguishable from a missing one.
  if (!p) throw new AppError("payment_unknown", { detail: "no such payment at this seller", extra: { payment_id: paymentId } });
  const audit = await listAuditLog(sellerId, { targetType: "payment", targetId: p.id, limit: 20 });
  const charge = p.ledgerEntries.find((l) => l.kind === "charge") ?? null;
  // Every refund (several partial ones on the card rail), oldest first; `refund` is the latest.
  const refunds = p.ledgerEntries.filter((l) => l.kind === "refund");
  const refund = refunds.at(-1) ?? null;
  const s = p.settlement;
  // A rail paid from a balance already held (prepaid credit) draws rather than charges.
  const rail = p.rail ? RAILS.find((r) => r.name === p.rail) : undefined;
  const implicit = Boolean(rail?.implicit);
  // Where the money moved: only a wallet rail charges on chain; a card is charged by its processor.
  const chargedHow =
    rail?.payerKind === "wallet"
      ? `charged on chain${p.network ? ` (${chainName(p.network)})` : ""}`
      : rail?.payerKind === "card"
        ? `charged to the card${p.card?.processorPaymentId ? ` (processor payment ${p.card.processorPaymentId})` : ""}`
        : "charged";

  // The timeline: every state the payment went through that its rows record, in order, with the time where one is kept.
  const timeline: Step[] = [];
  timeline.push(
    p.fromChallenge
      ? { state: "challenged", at: p.createdAt.toISOString(), note: "402 challenge issued" }
      : {
          state: "verified",
          at: p.createdAt.toISOString(),
          note: implicit ? `reserved from prepaid credit (${p.rail}): no 402 was needed` : "proof received without a challenge of ours (x402 v1)",
        },
  );
  if (p.card?.flow === "checkout") timeline.push({ state: "incomplete", at: null, note: "a person opened the card checkout (no separate time is kept)" });
  // Declined cards before the one that paid (or before the checkout ended unpaid): the count and the last answer kept.
  if (p.card && p.card.attempts > 0)
    timeline.push({
      state: "declined",
      at: null,
      note: `${p.card.attempts} card attempt${p.card.attempts === 1 ? "" : "s"} declined; the last: ${p.card.lastErrorMessage ?? "no message"}${
        (p.card.lastDeclineCode ?? p.card.lastErrorCode) ? ` (${p.card.lastDeclineCode ?? p.card.lastErrorCode})` : ""
      } (no separate time is kept)`,
    });
  if (p.fromChallenge && p.verifiedAt) timeline.push({ state: "verified", at: p.verifiedAt.toISOString(), note: `proof verified and locked (${p.rail})` });
  if (s)
    timeline.push({
      state: "settling",
      at: s.createdAt.toISOString(),
      note: `upstream answered${p.upstreamStatus ? ` ${p.upstreamStatus}` : ""}; charge decided, ${s.attempts} attempt${s.attempts === 1 ? "" : "s"}${
        s.deliveredFirst ? "; the answer went out before the charge was included on chain" : ""
      }`,
    });
  if (p.settledAt)
    timeline.push({
      state: "settled",
      at: p.settledAt.toISOString(),
      note: implicit
        ? "drawn: the reservation captured, ledger draw row written (the money came in with the plan purchase)"
        : `${chargedHow}, ledger charge written`,
    });
  if (p.status === "consumed" || (p.status === "refunded" && p.settledAt))
    timeline.push({ state: "consumed", at: null, note: "the paid response went out (no separate time is kept)" });
  if (p.status === "released")
    timeline.push({
      state: "released",
      at: p.updatedAt.toISOString(),
      note: `not charged: ${explainFailure(p.failureReason, "released").meaning}${p.upstreamStatus ? ` (upstream answered ${p.upstreamStatus})` : ""}`,
    });
  if (p.status === "failed")
    timeline.push({ state: "failed", at: s?.updatedAt.toISOString() ?? p.updatedAt.toISOString(), note: explainFailure(p.failureReason, "failed").meaning });
  let sum = 0n;
  for (const r of refunds) {
    sum += r.amountMicros;
    const state = sum >= p.amountMicros ? "refunded" : "partially refunded";
    timeline.push({ state, at: r.createdAt.toISOString(), note: `refund of ${formatUsd(r.amountMicros)} recorded (${formatUsd(sum)} refunded in all)` });
  }
  if (p.status === "challenged")
    timeline.push({
      state: p.expiresAt < new Date() ? "expired" : "awaiting proof",
      at: p.expiresAt.toISOString(),
      note: p.expiresAt < new Date() ? "no proof arrived before the challenge expired" : "the challenge expires at this time",
    });

  return {
    id: p.id,
    status: p.status,
    settling: p.status === "verified" && s?.status === "pending",
    unpaidDelivery: p.status === "failed" && Boolean(s?.deliveredFirst),
    rail: p.rail,
    operation: p.operationKey,
    meter: p.meterKey,
    amountUsd: microsToUsd(p.amountMicros),
    currency: p.currency,
    payer: p.payer,
    refundable: refundInput(p) !== null,
    refundInput: refundInput(p),
    partiallyRefunded: p.refundedMicros > 0n && p.refundedMicros < p.amountMicros,
    refundsInPart: refundsInPart(p.rail),
    refundedUsd: microsToUsd(p.refundedMicros),
    remainingUsd: microsToUsd(p.amountMicros - p.refundedMicros),
    refunds: refunds.map((r) => {
      const card = p.card?.refunds.find((c) => c.seq === r.seq);
      return {
        seq: r.seq,
        amountUsd: microsToUsd(r.amountMicros),
        at: r.createdAt.toISOString(),
        transaction: r.transaction,
        transactionUrl: links(p.network, r.transaction),
        processorRefundId: card?.processorRefundId ?? null,
        processorStatus: card?.status ?? null,
        error: card?.error ?? null,
      };
    }),
    createdAt: p.createdAt.toISOString(),
    expiresAt: p.expiresAt.toISOString(),
    /** Released or failed: why, in a seller's words, and what the payer can do. */
    failure: p.status === "released" || p.status === "failed" ? { reason: p.failureReason, ...explainFailure(p.failureReason, p.status) } : null,
    timeline,
    binding: {
      method: p.method,
      path: p.path,
      query: p.query,
      // The hash every rail checks a proof against (server/payments/request-binding.ts).
      hash: requestBinding({ sellerId, method: p.method, path: p.path, canonicalQuery: p.query }),
      payTo: p.payTo,
      network: p.network,
      chain: chainName(p.network),
      asset: p.asset,
      expiresAt: p.expiresAt.toISOString(),
    },
    settlement: {
      transaction: p.transaction,
      transactionUrl: links(p.network, p.transaction),
      outbox: s ? { status: s.status, attempts: s.attempts, units: s.units, lastError: s.lastError } : null,
      upstreamStatus: p.upstreamStatus,
      gasEth: charge?.gasCostWei != null ? weiToEth(BigInt(charge.gasCostWei.toFixed())) : null,
      feeUsd: charge?.feeMicros != null ? microsToUsd(charge.feeMicros) : null,
    },
    refund: refund
      ? {
          amountUsd: microsToUsd(refund.amountMicros),
          transaction: refund.transaction,
          transactionUrl: links(p.network, refund.transaction),
          logIndex: refund.logIndex,
          at: refund.createdAt.toISOString(),
        }
      : null,
    card: p.card
      ? cardView({
          processor: p.card.processor,
          flow: p.card.flow,
          brand: p.card.cardBrand,
          last4: p.card.cardLast4,
          processorPaymentId: p.card.processorPaymentId,
          refundStatus: p.card.refundStatus,
          refundCause: p.card.refundCause,
          refundId: p.card.refundId,
          payerEmail: p.card.payerEmail,
        })
      : null,
    /** Money first: what was paid, what the processor kept, what was given back, and what is left (fee known or not). */
    money: {
      amountUsd: microsToUsd(p.amountMicros),
      feeUsd: charge?.feeMicros != null ? microsToUsd(charge.feeMicros) : null,
      refundedUsd: refund ? microsToUsd(sum) : null,
      // Only what moved: nothing before the charge, nothing for a draw on credit (the purchase brought that money in).
      netUsd: charge && !implicit ? microsToUsd(charge.amountMicros - sum - (charge.feeMicros ?? 0n)) : null,
    },
    audit: audit.entries,
  };
}
