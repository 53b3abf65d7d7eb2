// The overview's top agent credentials: who bought the most prepaid credit in a span, net of refunds. A purchase's
// credit grant names the credential it was bought for (credit_grants, one per paid purchase, found through
// (seller_id, plan_id)); its charge and refund are the ledger rows of the grant's payment (unique (payment_id, kind)).
// Purchases are few next to calls, so this reads live rows only.
import { sql } from "../db/client";
import { utc, type Span } from "./span";

export type CredentialSpend = { credentialId: string; purchases: number; chargedMicros: bigint; refundedMicros: bigint; lastAt: string | null };

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
