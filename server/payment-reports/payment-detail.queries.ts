// One payment as the seller console's detail page shows it: the row with its settlement, ledger, events and refunds.
// Read-only, scoped by the seller id the caller took from the session.
import { db } from "../db/client";

/** One payment of this seller with everything its detail page shows (never rail_data: a bearer instrument until settled). */
export async function findPaymentDetail(sellerId: string, id: string) {
  return db.payment.findFirst({
    where: { id, sellerId },
    select: {
      id: true,
      status: true,
      rail: true,
      method: true,
      path: true,
      query: true,
      operationKey: true,
      meterKey: true,
      amountMicros: true,
      currency: true,
      network: true,
      asset: true,
      payTo: true,
      payer: true,
      fromChallenge: true,
      refundedMicros: true,
      expiresAt: true,
      upstreamStatus: true,
      transaction: true,
      failureReason: true,
      createdAt: true,
      updatedAt: true,
      verifiedAt: true,
      settledAt: true,
      settlement: {
        select: { status: true, attempts: true, units: true, transaction: true, lastError: true, deliveredFirst: true, createdAt: true, updatedAt: true },
      },
      card: {
        select: {
          processor: true,
          flow: true,
          cardBrand: true,
          cardLast4: true,
          processorPaymentId: true,
          refundStatus: true,
          refundCause: true,
          refundId: true,
          payerEmail: true,
          attempts: true,
          lastErrorCode: true,
          lastDeclineCode: true,
          lastErrorMessage: true,
          updatedAt: true,
          refunds: { select: { seq: true, status: true, processorRefundId: true, error: true }, orderBy: { seq: "asc" } },
        },
      },
      ledgerEntries: {
        select: {
          id: true,
          kind: true,
          seq: true,
          amountMicros: true,
          units: true,
          transaction: true,
          logIndex: true,
          gasCostWei: true,
          feeMicros: true,
          createdAt: true,
        },
        orderBy: [{ createdAt: "asc" }, { seq: "asc" }],
      },
    },
  });
}
