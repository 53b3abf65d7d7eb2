import { REFUND_STATUSES } from "../../payment-reports/refund-filter";
import { z } from "zod";
import { TRANSPORTS } from "../../payments/paid-call";
import { PAYMENT_SORTS } from "../../payment-reports/payment-filter";
import { explanation, iso, paymentStatus, usd } from "./common";

const card = z
  .object({
    processor: z.string(),
    flow: z.string(),
    brand: z.string().nullable(),
    last4: z.string().nullable(),
    processorPaymentId: z.string().nullable(),
    refund: z.object({ status: z.string(), cause: z.string().nullable(), refundId: z.string().nullable() }).nullable(),
    payerEmail: z.string().nullable(),
  })
  .nullable();

export const paymentRow = z.object({
  id: z.string(),
  createdAt: iso,
  method: z.string(),
  path: z.string(),
  query: z.string(),
  operation: z.string(),
  amountUsd: usd,
  currency: z.string(),
  rail: z.string().nullable(),
  transport: z.enum(TRANSPORTS),
  payer: z.string().nullable(),
  status: paymentStatus,
  settling: z.boolean(),
  network: z.string().nullable(),
  chain: z.string().nullable(),
  transaction: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** Answered before its on-chain charge was included, and the charge failed: delivered, never paid for. */
  unpaidDelivery: z.boolean(),
  expiresAt: iso,
  settledAt: iso.nullable(),
  refundable: z.boolean(),
  /** What the rail's refund asks of the seller: the transaction sent back (wallet rails), nothing (card), null: none. */
  refundInput: z.enum(["transaction", "none"]).nullable(),
  refundTransaction: z.string().nullable(),
  refundedAt: iso.nullable(),
  /** Some of it refunded, some left (still paid); the rail refunds in part; the sums. */
  partiallyRefunded: z.boolean(),
  refundsInPart: z.boolean(),
  refundedUsd: usd,
  remainingUsd: usd,
  card,
});

export const listOutput = z.object({ payments: z.array(paymentRow), nextCursor: z.string().nullable() });

export const filterOptionsOutput = z.object({
  states: z.array(paymentStatus),
  rails: z.array(z.string()),
  usageRails: z.array(z.string()),
  operations: z.array(z.string()),
  sorts: z.array(z.enum(PAYMENT_SORTS)),
});

export const totalsOutput = z.object({
  revenueUsd: usd,
  chargedUsd: usd,
  refundedUsd: usd,
  charges: z.number().int(),
  refunds: z.number().int(),
  byStatus: z.array(z.object({ status: paymentStatus, count: z.number().int(), amountUsd: usd })),
  usage: z.object({ draws: z.number().int(), drawnUsd: usd }),
  ledgerMatchesPayments: z.boolean(),
});

export const summaryOutput = z.object({
  count: z.number().int(),
  amountUsd: usd,
  paid: z.object({ count: z.number().int(), amountUsd: usd }),
  refunded: z.object({ count: z.number().int(), amountUsd: usd }),
});

const auditEntry = z.object({
  id: z.string(),
  action: z.string(),
  label: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetName: z.string(),
  actor: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
  fields: z.array(z.object({ field: z.string(), label: z.string(), before: z.string(), after: z.string(), format: z.enum(["text", "payment_state"]) })),
  at: iso,
});
export const auditListOutput = z.object({ entries: z.array(auditEntry), nextCursor: z.string().nullable() });

export const detailOutput = z.object({
  id: z.string(),
  status: paymentStatus,
  settling: z.boolean(),
  /** Answered before its on-chain charge was included, and the charge failed: delivered, never paid for. */
  unpaidDelivery: z.boolean(),
  rail: z.string().nullable(),
  operation: z.string(),
  meter: z.string().nullable(),
  amountUsd: usd,
  currency: z.string(),
  payer: z.string().nullable(),
  refundable: z.boolean(),
  /** What the rail's refund asks of the seller: the transaction sent back (wallet rails), nothing (card), null: none. */
  refundInput: z.enum(["transaction", "none"]).nullable(),
  /** Some of it refunded, some left (still paid); the rail refunds in part; the sums. */
  partiallyRefunded: z.boolean(),
  refundsInPart: z.boolean(),
  refundedUsd: usd,
  remainingUsd: usd,
  /** Every refund, oldest first: its amount, when, and the transfer (wallet) or the processor's refund (card). */
  refunds: z.array(
    z.object({
      seq: z.number().int(),
      amountUsd: usd,
      at: iso,
      transaction: z.string().nullable(),
      transactionUrl: z.string().nullable(),
      processorRefundId: z.string().nullable(),
      processorStatus: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
  createdAt: iso,
  expiresAt: iso,
  failure: explanation.extend({ reason: z.string().nullable() }).nullable(),
  timeline: z.array(z.object({ state: z.string(), at: iso.nullable(), note: z.string().nullable() })),
  binding: z.object({
    method: z.string(),
    path: z.string(),
    query: z.string(),
    hash: z.string(),
    payTo: z.string().nullable(),
    network: z.string().nullable(),
    chain: z.string().nullable(),
    asset: z.string().nullable(),
    expiresAt: iso,
  }),
  settlement: z.object({
    transaction: z.string().nullable(),
    transactionUrl: z.string().nullable(),
    outbox: z.object({ status: z.string(), attempts: z.number().int(), units: z.number().int(), lastError: z.string().nullable() }).nullable(),
    upstreamStatus: z.number().int().nullable(),
    gasEth: z.string().nullable(),
    feeUsd: usd.nullable(),
  }),
  refund: z
    .object({ amountUsd: usd, transaction: z.string().nullable(), transactionUrl: z.string().nullable(), logIndex: z.number().int().nullable(), at: iso })
    .nullable(),
  card,
  money: z.object({ amountUsd: usd, feeUsd: usd.nullable(), refundedUsd: usd.nullable(), netUsd: usd.nullable() }),
  audit: z.array(auditEntry),
});

export const refundsOutput = z.object({
  refunds: z.array(
    z.object({
      id: z.string(),
      paymentId: z.string(),
      amountUsd: usd,
      /** The payment's whole amount: a refund of less is partial. */
      paymentAmountUsd: usd,
      currency: z.string(),
      operation: z.string().nullable(),
      rail: z.string().nullable(),
      payer: z.string().nullable(),
      payerEmail: z.string().nullable(),
      card: z.object({ brand: z.string().nullable(), last4: z.string() }).nullable(),
      network: z.string().nullable(),
      chain: z.string().nullable(),
      transaction: z.string().nullable(),
      transactionUrl: z.string().nullable(),
      logIndex: z.number().int().nullable(),
      status: z.enum(REFUND_STATUSES),
      reason: z.string(),
      processorRefundId: z.string().nullable(),
      refundError: z.string().nullable(),
      recordedBy: z.string().nullable(),
      paidAt: iso,
      refundedAt: iso,
    }),
  ),
  nextCursor: z.string().nullable(),
});

const refundSum = z.object({ count: z.number().int(), amountUsd: usd });
export const refundsSummaryOutput = refundSum.extend({ byStatus: z.array(refundSum.extend({ status: z.enum(REFUND_STATUSES) })) });

/** One refund, whatever the rail (`payments.refund`): the wallet rails' recorded transfer or the card processor's refund. */
export const refundOutput = z.object({
  paymentId: z.string(),
  status: z.enum(["refunded", "partially_refunded"]),
  /** This refund's amount; all refunded so far and what is left (rails that refund in part). */
  amountUsd: usd,
  refundedUsd: usd.optional(),
  remainingUsd: usd.optional(),
  transaction: z.string().optional(),
  logIndex: z.number().int().optional(),
  recordedAt: z.string().optional(),
  alreadyRecorded: z.boolean().optional(),
  refundStatus: z.string().optional(),
  refundId: z.string().nullable().optional(),
  alreadyRefunded: z.boolean().optional(),
});
