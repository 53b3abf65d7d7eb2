// The rows an evidence file is made of (./export-payment-evidence.ts): one payment of this seller with its outbox row,
// ledger rows, card row and plan purchase, and the events recorded about it with their webhook deliveries. Scoped by
// the seller id from the session: another seller's payment id finds nothing.
import { db } from "../db/client";

export async function findPaymentEvidence(sellerId: string, id: string) {
  return db.payment.findFirst({
    where: { id, sellerId },
    include: {
      settlement: true,
      ledgerEntries: { orderBy: { createdAt: "asc" } },
      card: true,
      planPurchase: { select: { planId: true, kind: true, credentialId: true, amountMicros: true } },
    },
  });
}

export type PaymentEvidenceRow = NonNullable<Awaited<ReturnType<typeof findPaymentEvidence>>>;

/** The events about a payment (oldest first) and each one's webhook deliveries (never an endpoint's secret). */
export async function findPaymentEventsWithDeliveries(sellerId: string, paymentId: string) {
  return db.event.findMany({
    where: { sellerId, subjectId: paymentId },
    orderBy: { seq: "asc" },
    select: {
      id: true,
      type: true,
      createdAt: true,
      data: true,
      deliveries: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          status: true,
          attempts: true,
          lastAttemptAt: true,
          lastStatus: true,
          deliveredAt: true,
          createdAt: true,
          endpoint: { select: { id: true, url: true } },
        },
      },
    },
  });
}
