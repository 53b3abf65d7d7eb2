// The card reconciler's scans (reconcile-card-payments.ts): checkouts to ask the processor about, paid checkouts never
// delivered, refunds not confirmed. Reads only, plus the note that a checkout was looked at.
import { sql } from "../../../db/client";
import { stateSql } from "../../payment-state";

const NOW = "(now() at time zone 'UTC')";

/** Checkouts still open on our side: past their expiry, or quiet for `quietSeconds` (a crash after the charge). */
export async function findOpenCheckouts(limit: number, quietSeconds: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    `select p.id from payments p join card_payments c on c.payment_id = p.id
     where p.status = ${stateSql("incomplete")} and c.checkout_id is not null
       and (p.expires_at < ${NOW} or c.updated_at < ${NOW} - make_interval(secs => $2))
     order by p.expires_at limit $1`,
    [limit, quietSeconds],
  );
  return rows.map((r) => r.id);
}

/** Checkouts whose processor call never happened (a crash or an outage right after the state move), now expired. */
export async function findExpiredCheckoutsWithoutSession(limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(
    `select p.id from payments p join card_payments c on c.payment_id = p.id
     where p.status = ${stateSql("incomplete")} and c.checkout_id is null and p.expires_at < ${NOW} limit $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Paid checkouts never delivered within the window and not being delivered now: to be refunded. */
export async function findUndeliveredCheckouts(limit: number, windowSeconds: number): Promise<{ id: string; sellerId: string }[]> {
  const { rows } = await sql<{ id: string; seller_id: string }>(
    `select p.id, p.seller_id from payments p join card_payments c on c.payment_id = p.id
     where p.status = ${stateSql("settled")} and p.rail = 'card' and c.flow = 'checkout'
       and p.settled_at < ${NOW} - make_interval(secs => $2) and (p.locked_until is null or p.locked_until < ${NOW})
     limit $1`,
    [limit, windowSeconds],
  );
  return rows.map((r) => ({ id: r.id, sellerId: r.seller_id }));
}

/** Refunds decided but not confirmed by the processor (the inline call failed or never happened). */
export async function findPendingRefunds(limit: number, olderThanSeconds: number): Promise<{ paymentId: string; seq: number }[]> {
  const { rows } = await sql<{ payment_id: string; seq: number }>(
    `select payment_id, seq from card_refunds where status = 'pending' and updated_at < ${NOW} - make_interval(secs => $2) limit $1`,
    [limit, olderThanSeconds],
  );
  return rows.map((r) => ({ paymentId: r.payment_id, seq: r.seq }));
}

/** The reconciler looked at this checkout now: the next look is QUIET_SECONDS later. */
export async function touchCardPayment(paymentId: string): Promise<void> {
  await sql(`update card_payments set updated_at = ${NOW} where payment_id = $1`, [paymentId]);
}
