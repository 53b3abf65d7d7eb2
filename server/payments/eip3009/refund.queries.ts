// Prisma access for the wallet rails' refunds recorded from the console (record-refund.ts). The refund is one
// transaction: the state-guarded move to refunded, the ledger's refund row naming the on-chain transfer, and
// the audit row. The unique (transaction, log_index) index is what makes one transfer refund one payment.
import { db, type Tx } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { recordAudit } from "../../audit/audit.queries";
import { revokePurchasedCredit } from "../../billing/billing.queries";
import { newId } from "../../lib/ids";
import { transition, type PaymentStatus } from "../payment-state";

// An explicit select: `proof` never leaves the payments domain's settlement path.
const REFUNDABLE_SELECT = {
  id: true,
  sellerId: true,
  status: true,
  rail: true,
  amountMicros: true,
  currency: true,
  asset: true,
  payTo: true,
  payer: true,
  transaction: true,
  ledgerEntries: { where: { kind: "refund" }, select: { amountMicros: true, transaction: true, logIndex: true, createdAt: true } },
} as const satisfies Prisma.PaymentSelect;

export type RefundablePayment = Prisma.PaymentGetPayload<{ select: typeof REFUNDABLE_SELECT }>;

/** One payment of this seller with its refund row, if any. Another seller's id matches nothing. */
export async function findPaymentForRefund(sellerId: string, id: string): Promise<RefundablePayment | null> {
  return db.payment.findFirst({ where: { id, sellerId }, select: REFUNDABLE_SELECT });
}

/** The logs of `transaction` already recorded as refunds (served by the unique (transaction, log_index) index). */
export async function findRefundedLogs(transaction: string): Promise<{ logIndex: number; paymentId: string; sellerId: string }[]> {
  const rows = await db.ledgerEntry.findMany({ where: { transaction, kind: "refund" }, select: { logIndex: true, paymentId: true, sellerId: true } });
  return rows.flatMap((r) => (r.logIndex === null ? [] : [{ logIndex: r.logIndex, paymentId: r.paymentId, sellerId: r.sellerId }]));
}

/** A refund sent by the seller reverses a paid payment, served or not. */
const REFUND = transition(["settled", "consumed"], "refunded");

export type RefundInput = {
  sellerId: string;
  actorId: string | null;
  paymentId: string;
  amountMicros: bigint;
  /** What the transfer actually moved (>= amountMicros); kept in the audit row only. */
  transferredMicros: bigint;
  transaction: string;
  logIndex: number;
  /** The seller's reason, for the audit row. */
  reason?: string;
};

export type RefundWrite =
  | { type: "recorded"; createdAt: Date }
  /** The payment is no longer settled or consumed (a racer refunded it first, or it never was). */
  | { type: "not_refundable" }
  /** This transfer (transaction, log index) is already another payment's refund. */
  | { type: "transfer_taken" };

function violatesTransferUnique(e: unknown): boolean {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError) || e.code !== "P2002") return false;
  // The driver adapter names the index's columns in meta; the only other unique on the row is (payment_id,
  // kind, seq), which the state guard already excludes (a wallet payment is refunded once, in full).
  return JSON.stringify(e.meta ?? {}).includes("log_index");
}

/** settled|consumed -> refunded, the ledger's refund row and the audit row, all or nothing. */
export async function insertRefund(input: RefundInput): Promise<RefundWrite> {
  try {
    return await db.$transaction(async (tx: Tx): Promise<RefundWrite> => {
      // The state before, for the audit row: read under the row lock, so a concurrent settled -> consumed (the
      // gateway finishing the response) or another refund cannot change it before our update.
      const [before] = await tx.$queryRaw<
        { status: PaymentStatus }[]
      >`select status from payments where id = ${input.paymentId} and seller_id = ${input.sellerId} for update`;
      // The state guard: of any number of racers for this payment, exactly one moves it.
      const moved = await tx.payment.updateMany({
        where: { id: input.paymentId, sellerId: input.sellerId, status: { in: [...REFUND.from] } },
        // A wallet refund is the whole payment (partial transfers are refused): all of it is refunded.
        data: { status: REFUND.to, lockedUntil: null, refundedMicros: input.amountMicros },
      });
      if (moved.count !== 1 || !before) return { type: "not_refundable" };
      const charge = await tx.ledgerEntry.findUnique({
        where: { paymentId_kind_seq: { paymentId: input.paymentId, kind: "charge", seq: 0 } },
        select: { meterKey: true, units: true, currency: true, rail: true, operationKey: true, payer: true },
      });
      // The refund reverses the charge row: same meter, units, operation, rail and payer, the payment's amount.
      const row = await tx.ledgerEntry.create({
        data: {
          id: newId("led"),
          sellerId: input.sellerId,
          paymentId: input.paymentId,
          kind: "refund",
          rail: charge?.rail ?? null,
          operationKey: charge?.operationKey ?? null,
          payer: charge?.payer ?? null,
          meterKey: charge?.meterKey ?? null,
          units: charge?.units ?? 1,
          amountMicros: input.amountMicros,
          currency: charge?.currency ?? "USD",
          transaction: input.transaction,
          logIndex: input.logIndex,
        },
        select: { createdAt: true },
      });
      await revokePurchasedCredit(tx, input.paymentId);
      await recordAudit(tx, {
        sellerId: input.sellerId,
        actorId: input.actorId,
        action: "payment.refund",
        targetId: input.paymentId,
        before: { status: before.status, amountMicros: input.amountMicros.toString() },
        after: {
          status: "refunded",
          amountMicros: input.amountMicros.toString(),
          transferredMicros: input.transferredMicros.toString(),
          transaction: input.transaction,
          logIndex: input.logIndex,
          ...(input.reason ? { reason: input.reason } : {}),
        },
      });
      return { type: "recorded", createdAt: row.createdAt };
    });
  } catch (e) {
    // Another payment's refund took this transfer between our read of the claimed logs and our insert: the
    // whole transaction rolled back, so the payment is still settled or consumed.
    if (violatesTransferUnique(e)) return { type: "transfer_taken" };
    throw e;
  }
}
