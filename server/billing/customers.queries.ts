// The Customers page's money: per agent credential and per human who claimed credentials at the seller, in one
// statement each, every figure scoped to the seller. Read-only.
import { sql } from "../db/client";
import { stateSql, statesSql } from "../payments/payment-state";

/** A credential's calls that were paid (and perhaps refunded since). */
const PAID_OR_REFUNDED = statesSql(["settled", "consumed", "refunded"]);

export type CredentialBillingRow = {
  credentialId: string;
  balanceMicros: bigint;
  plans: string[];
  spentMicros: bigint;
  drawnMicros: bigint;
  calls: number;
  lastCallAt: Date | null;
};

/**
 * The Customers page's money per credential, for one page of credentials (index lookups by credential): live credit
 * and the plans it is on, what the credential paid (charges made with its bearer, purchases included, net of refunds),
 * what it drew on credit, its served calls and the last one.
 */
export async function findCredentialBilling(sellerId: string, credentialIds: string[]): Promise<CredentialBillingRow[]> {
  if (!credentialIds.length) return [];
  const { rows } = await sql<{
    id: string;
    balance: string;
    plans: string[] | null;
    spent: string;
    drawn: string;
    calls: number;
    last_call: string | null;
  }>(
    `with ids as (select unnest($2::text[]) as id),
     g as (
       select g.credential_id, sum(g.remaining_micros) as balance, array_agg(distinct pl.name order by pl.name) as plans
       from credit_grants g join plans pl on pl.id = g.plan_id
       where g.seller_id = $1 and g.credential_id = any($2) and g.expires_at > now() at time zone 'UTC' and g.remaining_micros > 0
       group by g.credential_id
     ), m as (
       select p.credential_id,
         coalesce(sum(l.amount_micros) filter (where l.kind = 'charge'), 0) - coalesce(sum(l.amount_micros) filter (where l.kind = 'refund'), 0) as spent,
         coalesce(sum(l.amount_micros) filter (where l.kind = 'draw'), 0) as drawn
       from payments p join ledger_entries l on l.payment_id = p.id
       where p.seller_id = $1 and p.credential_id = any($2)
       group by p.credential_id
     ), c as (
       select credential_id, count(*)::int as calls, max(created_at) as last_call from payments
       where seller_id = $1 and credential_id = any($2) and status in ${PAID_OR_REFUNDED}
         and operation_key not in ('plan_purchase', 'plan_extend')
       group by credential_id
     )
     select ids.id, coalesce(g.balance, 0)::text as balance, g.plans, coalesce(m.spent, 0)::text as spent, coalesce(m.drawn, 0)::text as drawn,
       coalesce(c.calls, 0) as calls, to_char(c.last_call, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_call
     from ids left join g on g.credential_id = ids.id left join m on m.credential_id = ids.id left join c on c.credential_id = ids.id`,
    [sellerId, credentialIds],
  );
  return rows.map((r) => ({
    credentialId: r.id,
    balanceMicros: BigInt(r.balance),
    plans: r.plans ?? [],
    spentMicros: BigInt(r.spent),
    drawnMicros: BigInt(r.drawn),
    calls: r.calls,
    lastCallAt: r.last_call ? new Date(r.last_call) : null,
  }));
}

export type HumanCredentialRow = { id: string; kind: string; revoked: boolean };

export type SellerHumanRow = {
  humanId: string;
  email: string;
  /** When the human first claimed a credential here: the list's order (newest first) and its cursor. */
  since: Date;
  /** Every credential of this seller the human claimed, oldest first: they share the human's plans and free units. */
  credentials: HumanCredentialRow[];
  /** Plans with live credit left, over every linked credential's grants. */
  plans: string[];
  balanceMicros: bigint;
  purchasedMicros: bigint;
  spentMicros: bigint;
  drawnMicros: bigint;
  calls: number;
  lastCallAt: Date | null;
};

/**
 * The Customers page's people: the humans who claimed credentials at this seller, newest claim first, `take` after the
 * cursor (the `since` and id of the previous page's last row), each with their linked credentials and the money over
 * all of them: the live credit they share and the plans it is on, what was ever bought, what the credentials paid
 * (charges net of refunds, purchases included), what they drew on credit, their served calls and the last one. One
 * statement; every figure is scoped to the seller.
 */
export async function findSellerHumans(sellerId: string, q: { cursor: { since: Date; humanId: string } | null; take: number }): Promise<SellerHumanRow[]> {
  const { rows } = await sql<{
    human_id: string;
    email: string;
    since: string;
    credentials: HumanCredentialRow[];
    plans: string[] | null;
    balance: string;
    purchased: string;
    spent: string;
    drawn: string;
    calls: number;
    last_call: string | null;
  }>(
    `with linked as (
       select human_id, min(coalesce(claimed_at, created_at)) as since
       from agent_credentials where seller_id = $1 and human_id is not null
       group by human_id
     ), page as (
       select human_id, since from linked
       where $2::text is null or (since, human_id) < ($2::timestamp, $3::text)
       order by since desc, human_id desc
       limit $4
     ), creds as (
       select c.id, c.human_id, c.kind, c.revoked_at, c.created_at from agent_credentials c join page on page.human_id = c.human_id
       where c.seller_id = $1
     ), g as (
       select creds.human_id,
         coalesce(sum(g.remaining_micros) filter (where g.expires_at > now() at time zone 'UTC'), 0) as balance,
         sum(g.amount_micros) as purchased,
         array_agg(distinct pl.name order by pl.name) filter (where g.expires_at > now() at time zone 'UTC' and g.remaining_micros > 0) as plans
       from creds join credit_grants g on g.credential_id = creds.id and g.seller_id = $1 join plans pl on pl.id = g.plan_id
       group by creds.human_id
     ), m as (
       select creds.human_id,
         coalesce(sum(l.amount_micros) filter (where l.kind = 'charge'), 0) - coalesce(sum(l.amount_micros) filter (where l.kind = 'refund'), 0) as spent,
         coalesce(sum(l.amount_micros) filter (where l.kind = 'draw'), 0) as drawn
       from creds join payments p on p.credential_id = creds.id and p.seller_id = $1 join ledger_entries l on l.payment_id = p.id
       group by creds.human_id
     ), k as (
       select creds.human_id, count(*)::int as calls, max(p.created_at) as last_call
       from creds join payments p on p.credential_id = creds.id and p.seller_id = $1
       where p.status in ${PAID_OR_REFUNDED} and p.operation_key not in ('plan_purchase', 'plan_extend')
       group by creds.human_id
     )
     select page.human_id, h.email, to_char(page.since, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as since,
       (select json_agg(json_build_object('id', creds.id, 'kind', creds.kind, 'revoked', creds.revoked_at is not null) order by creds.created_at, creds.id)
        from creds where creds.human_id = page.human_id) as credentials,
       g.plans, coalesce(g.balance, 0)::text as balance, coalesce(g.purchased, 0)::text as purchased,
       coalesce(m.spent, 0)::text as spent, coalesce(m.drawn, 0)::text as drawn, coalesce(k.calls, 0) as calls,
       to_char(k.last_call, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_call
     from page join humans h on h.id = page.human_id
       left join g on g.human_id = page.human_id left join m on m.human_id = page.human_id left join k on k.human_id = page.human_id
     order by page.since desc, page.human_id desc`,
    [sellerId, q.cursor ? q.cursor.since.toISOString().replace("Z", "") : null, q.cursor?.humanId ?? null, q.take],
  );
  return rows.map((r) => ({
    humanId: r.human_id,
    email: r.email,
    since: new Date(r.since),
    credentials: r.credentials,
    plans: r.plans ?? [],
    balanceMicros: BigInt(r.balance),
    purchasedMicros: BigInt(r.purchased),
    spentMicros: BigInt(r.spent),
    drawnMicros: BigInt(r.drawn),
    calls: r.calls,
    lastCallAt: r.last_call ? new Date(r.last_call) : null,
  }));
}

export type CardPayerRow = {
  email: string | null;
  cards: string[];
  payments: number;
  refunds: number;
  paidMicros: bigint;
  refundedMicros: bigint;
  lastAt: Date | null;
};

/**
 * Card payers in a range: one row per email given at checkout, or per card (brand and last four) for a payer who gave
 * none. Paid is what stayed paid (settled or consumed); refunded is counted apart. Biggest payers first.
 */
export async function findCardPayers(sellerId: string, start: Date, end: Date, limit: number): Promise<CardPayerRow[]> {
  const { rows } = await sql<{
    email: string | null;
    cards: string[];
    payments: number;
    refunds: number;
    paid_micros: string;
    refunded_micros: string;
    last_at: Date | null;
  }>(
    `select max(c.payer_email) as email,
            array_agg(distinct upper(coalesce(c.card_brand, 'card')) || ' •••• ' || coalesce(c.card_last4, '????')) as cards,
            count(*)::int as payments,
            count(*) filter (where p.status = ${stateSql("refunded")})::int as refunds,
            coalesce(sum(p.amount_micros) filter (where p.status in ${statesSql(["settled", "consumed"])}), 0)::text as paid_micros,
            coalesce(sum(p.amount_micros) filter (where p.status = ${stateSql("refunded")}), 0)::text as refunded_micros,
            max(coalesce(p.settled_at, p.created_at)) as last_at
       from card_payments c join payments p on p.id = c.payment_id
      where p.seller_id = $1 and p.rail = 'card' and p.status in ${PAID_OR_REFUNDED} and p.created_at >= $2 and p.created_at < $3
      group by coalesce(c.payer_email, 'card:' || coalesce(c.card_brand, '') || ':' || coalesce(c.card_last4, c.payment_id))
      order by 6 desc, 7 desc
      limit $4`,
    [sellerId, start, end, limit],
  );
  return rows.map((r) => ({
    email: r.email,
    cards: r.cards,
    payments: r.payments,
    refunds: r.refunds,
    paidMicros: BigInt(r.paid_micros),
    refundedMicros: BigInt(r.refunded_micros),
    lastAt: r.last_at,
  }));
}
