// The console's global search, as SQL: exact lookups scoped to the seller (a payment by id, transaction or card
// processor id; a payer; a credential or a person's email; catalog names), each bounded. A payer has no index of its
// own: it is found on the seller's covering index of payments, as the Payments page's payer filter is.
import { sql } from "../db/client";

export type PaymentHit = {
  id: string;
  status: string;
  rail: string | null;
  operation_key: string;
  amount_micros: string;
  payer: string | null;
  created_at: string;
};

/** Payments by id, settlement transaction (0x + 64 hex, lower case as recorded) or card processor id (pi_..., cs_...). */
export async function findPaymentHits(sellerId: string, q: string, limit: number): Promise<PaymentHit[]> {
  const { rows } = await sql<PaymentHit>(
    `select p.id, p.status::text as status, p.rail, p.operation_key, p.amount_micros::text as amount_micros, p.payer,
       to_char(p.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
     from payments p
     where p.seller_id = $1 and (p.id = $2 or p.transaction = lower($2)
       or p.id in (select c.payment_id from card_payments c where c.processor_payment_id = $2 or c.checkout_id = $2 or c.processor_ref = $2))
     order by p.created_at desc limit $3`,
    [sellerId, q, limit],
  );
  return rows;
}

/** A payer (a wallet, lower case as recorded; a credential) and how many payments it made, if any. */
export async function findPayerHit(sellerId: string, payer: string): Promise<{ payments: number; lastAt: string } | null> {
  const { rows } = await sql<{ n: number; last_at: string | null }>(
    `select count(*)::int as n, to_char(max(created_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at from payments where seller_id = $1 and payer = $2`,
    [sellerId, payer],
  );
  const r = rows[0];
  return r && r.n > 0 ? { payments: r.n, lastAt: r.last_at! } : null;
}

/** Agent credentials by id, and those claimed by a person with this email. */
export async function findCredentialHits(
  sellerId: string,
  q: string,
  limit: number,
): Promise<{ id: string; kind: string; status: string; email: string | null }[]> {
  const { rows } = await sql<{ id: string; kind: string; status: string; email: string | null }>(
    `select a.id, a.kind, a.status, h.email from agent_credentials a left join humans h on h.id = a.human_id
     where a.seller_id = $1 and (a.id = $2 or h.email = lower($2))
     order by a.created_at desc limit $3`,
    [sellerId, q, limit],
  );
  return rows;
}

/** Plans, meters and operations whose key, slug, name or path contains the text (the catalog is small). */
export async function findCatalogHits(
  sellerId: string,
  q: string,
  limit: number,
): Promise<{ kind: "plan" | "meter" | "operation"; key: string; name: string }[]> {
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<{ kind: "plan" | "meter" | "operation"; key: string; name: string }>(
    `(select 'plan' as kind, slug as key, name from plans where seller_id = $1 and (lower(slug) like $2 or lower(name) like $2) order by slug limit $3)
     union all
     (select 'meter', key, title from meters where seller_id = $1 and (lower(key) like $2 or lower(title) like $2) order by key limit $3)
     union all
     (select 'operation', key, summary from operations where seller_id = $1 and (lower(key) like $2 or lower(path_template) like $2) order by key limit $3)`,
    [sellerId, like, limit],
  );
  return rows;
}
