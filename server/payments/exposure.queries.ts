// The value a seller has answered before its settlements were included and not yet settled, for an answer that was to
// wait for inclusion but whose charge did not confirm in time (the outbox row stays pending, the reconciler's): it is
// delivered before inclusion after all, so it counts against the same caps, per wallet and across wallets
// (reserve_delivery_exposure, migration 20261128110000), or it is not delivered now.
import { sql } from "../db/client";

/**
 * Count this payment's pending charge as delivered first, if the payer's cap and the seller's cap across wallets have
 * room: one statement, on the settlement row locked and still pending. True when counted (its end gives it back, as
 * for any delivered-first settlement).
 */
export async function countPendingChargeAsDelivered(paymentId: string, defaults: { payerCapMicros: bigint; sellerCapMicros: bigint }): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>(
    `with s as (
       select s.payment_id from settlements s where s.payment_id = $1 and s.status = 'pending' and not s.delivered_first for update
     ), e as (
       select 1 from s join payments p on p.id = s.payment_id left join seller_settings ss on ss.seller_id = p.seller_id
       where p.payer is not null
         and reserve_delivery_exposure(p.seller_id, p.payer, p.amount_micros, coalesce(ss.unsettled_cap_micros, $2::bigint), coalesce(ss.seller_unsettled_cap_micros, $3::bigint))
     ), u as (
       update settlements set delivered_first = true, updated_at = now() at time zone 'UTC' where payment_id in (select payment_id from s) and exists (select 1 from e)
       returning 1
     )
     select exists (select 1 from u) as ok`,
    [paymentId, defaults.payerCapMicros.toString(), defaults.sellerCapMicros.toString()],
    "exposure_count_pending_charge",
  );
  return rows[0]?.ok ?? false;
}
