// The overview's top customers: the wallets with the most net spend, and the agent credentials that bought the most
// prepaid credit, in a span.
import { sql } from "../db/client";
import { splitSpan, utc, type Span } from "./span";

export type CredentialSpend = { credentialId: string; purchases: number; chargedMicros: bigint; refundedMicros: bigint; lastAt: string | null };

/**
 * A purchase's credit grant names the credential it was bought for (credit_grants, one per paid purchase, found through
 * (seller_id, plan_id)); its charge and refund are the ledger rows of the grant's payment (unique (payment_id, kind)).
 * Purchases are few next to calls, so this reads live rows only.
 */
export async function findTopCredentialsByPurchases(sellerId: string, span: Span, limit: number): Promise<CredentialSpend[]> {
  const { rows } = await sql<{ credential_id: string; purchases: number; charged: string; refunded: string; last_at: string | null }>(
    `select g.credential_id, count(*) filter (where l.kind = 'charge')::int as purchases,
       coalesce(sum(l.amount_micros) filter (where l.kind = 'charge'), 0)::text as charged,
       coalesce(sum(l.amount_micros) filter (where l.kind = 'refund'), 0)::text as refunded,
       to_char(max(l.created_at) filter (where l.kind = 'charge'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
     from credit_grants g join ledger_entries l on l.payment_id = g.source_payment_id and l.kind in ('charge', 'refund')
     where g.seller_id = $1 and l.created_at >= $2::timestamptz at time zone 'UTC' and l.created_at < $3::timestamptz at time zone 'UTC'
     group by g.credential_id
     order by coalesce(sum(l.amount_micros) filter (where l.kind = 'charge'), 0) - coalesce(sum(l.amount_micros) filter (where l.kind = 'refund'), 0) desc,
       g.credential_id
     limit $4`,
    [sellerId, utc(span.start), utc(span.end), limit],
  );
  return rows.map((r) => ({
    credentialId: r.credential_id,
    purchases: r.purchases,
    chargedMicros: BigInt(r.charged),
    refundedMicros: BigInt(r.refunded),
    lastAt: r.last_at,
  }));
}

export type WalletSpend = { payer: string; charges: number; chargedMicros: bigint; refundedMicros: bigint; lastAt: string | null };

/**
 * The overview's top wallets: the payers of the wallet rails with the most net spend over a span, `limit` of them.
 * Rolled-up days from payer_daily (its primary key starts with (seller_id, day)), later days from the ledger's covering
 * index; one grouping, without the paged list's totals and rail lists (list-paying-wallets has those).
 */
export async function findTopWallets(sellerId: string, span: Span, through: string | null, walletRails: string[], limit: number): Promise<WalletSpend[]> {
  const { days, live } = splitSpan(span, through);
  const params: unknown[] = [sellerId, walletRails];
  const parts: string[] = [];
  if (days) {
    params.push(days[0], days[1]);
    parts.push(
      `select payer, charges, charged_micros, refunded_micros, last_charge_at from payer_daily
       where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date and rail = any($2::text[])`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select payer, (kind = 'charge')::int, case when kind = 'charge' then amount_micros else 0 end, case when kind = 'refund' then amount_micros else 0 end,
         case when kind = 'charge' then created_at end
       from ledger_entries where seller_id = $1 and payer is not null and kind in ('charge', 'refund') and rail = any($2::text[])
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  params.push(limit);
  const { rows } = await sql<{ payer: string; charges: number; charged: string; refunded: string; last_at: string | null }>(
    `select payer, sum(charges)::int as charges, sum(charged_micros)::text as charged, sum(refunded_micros)::text as refunded,
       to_char(max(last_charge_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
     from (${parts.join(" union all ")}) as x(payer, charges, charged_micros, refunded_micros, last_charge_at)
     group by payer order by sum(charged_micros) - sum(refunded_micros) desc, payer limit $${params.length}`,
    params,
  );
  return rows.map((r) => ({ payer: r.payer, charges: r.charges, chargedMicros: BigInt(r.charged), refundedMicros: BigInt(r.refunded), lastAt: r.last_at }));
}
