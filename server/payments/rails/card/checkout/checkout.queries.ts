// Reads and writes of the hosted checkout beyond the card row itself: the agent a plan purchase is for (its credit dies
// with it while unclaimed), the card payer's email and the receipt sent to it (once).
import { db } from "../../../../db/client";
import { PAID_STATES, statesSql } from "../../../payment-state";

export async function findBuyingAgent(sellerId: string, credentialId: string): Promise<{ status: string; expiresAt: Date | null } | null> {
  return db.agentCredential.findFirst({ where: { id: credentialId, sellerId }, select: { status: true, expiresAt: true } });
}

/** Remember the email the payer typed, while the checkout is still open (a paid checkout's payer is settled). */
export async function recordPayerEmail(paymentId: string, email: string): Promise<void> {
  await db.cardPayment.updateMany({ where: { paymentId, payment: { status: "incomplete" } }, data: { payerEmail: email } });
}

/**
 * Keep the email the payer gave on the processor's hosted page, once it reports the checkout paid. An email given on
 * our page first is kept (it is the one the payer chose for the receipt); the processor's fills only an empty one.
 */
export async function recordProcessorPayerEmail(paymentId: string, email: string): Promise<void> {
  await db.cardPayment.updateMany({ where: { paymentId, payerEmail: null }, data: { payerEmail: email.trim().toLowerCase() } });
}

/**
 * Claim the receipt of a paid checkout: true for exactly one caller (a double submit, the 3-D Secure step and a
 * reload race here), and only when the payment is paid and has an email to send to.
 */
export async function claimReceipt(paymentId: string): Promise<{ email: string } | null> {
  const rows = await db.$queryRawUnsafe<{ payer_email: string }[]>(
    `update card_payments c set receipt_sent_at = now() at time zone 'UTC'
       from payments p
      where c.payment_id = $1 and p.id = c.payment_id and c.receipt_sent_at is null and c.payer_email is not null
        and p.status in ${statesSql(PAID_STATES)}
      returning c.payer_email`,
    paymentId,
  );
  return rows[0] ? { email: rows[0].payer_email } : null;
}
