// One customer's page (customers.customer): what a wallet, a person (by email: the card checkouts they paid and the
// credentials they claimed) or one agent credential paid this seller, refunds, plans with credit left, and their latest
// payments. Read-only; every statement is scoped to the seller from the session.
import { sql } from "../db/client";
import { stateSql } from "../payments/payment-state";

/** Who a customer page is about: a wallet address (lower case), an email (lower case) or an agent credential id. */
export type CustomerKey = { kind: "wallet" | "email" | "credential"; value: string };

/**
 * The customer's payments as a CTE named `ps` (payment ids), with `creds` (their credentials) before it. Parameters:
 * $1 seller, $2 kind, $3 value. A wallet is the payer a rail recorded; a person is the card checkouts paid with their
 * email plus everything their claimed credentials bought or drew; a credential is its own purchases and draws.
 */
const CUSTOMER_CTES = `creds as (
    select c.id from agent_credentials c
    where c.seller_id = $1 and (($2 = 'credential' and c.id = $3) or ($2 = 'email' and c.human_id = (select h.id from humans h where h.email = $3)))
  ), ps as (
    select p.id from payments p
    where p.seller_id = $1 and (($2 = 'wallet' and p.payer = $3) or p.credential_id in (select id from creds))
    union
    select c.payment_id from card_payments c join payments p on p.id = c.payment_id
    where $2 = 'email' and c.payer_email = $3 and p.seller_id = $1
  )`;

export type CustomerTotalsRow = {
  exists: boolean;
  credentials: { id: string; kind: string; revoked: boolean }[];
  cards: string[];
  charges: number;
  chargedMicros: bigint;
  refunds: number;
  refundedMicros: bigint;
  draws: number;
  drawnMicros: bigint;
  firstAt: Date | null;
  lastAt: Date | null;
};

/** The customer's money from the ledger (charges, refunds, draws), their credentials and the cards they paid with. */
export async function findCustomerTotals(sellerId: string, key: CustomerKey): Promise<CustomerTotalsRow> {
  const { rows } = await sql<{
    payments: number;
    credentials: CustomerTotalsRow["credentials"] | null;
    cards: string[] | null;
    charges: number;
    charged: string;
    refunds: number;
    refunded: string;
    draws: number;
    drawn: string;
    first_at: string | null;
    last_at: string | null;
  }>(
    `with ${CUSTOMER_CTES}
     select (select count(*)::int from ps) as payments,
       (select json_agg(json_build_object('id', c.id, 'kind', c.kind, 'revoked', c.revoked_at is not null) order by c.created_at, c.id)
        from agent_credentials c where c.id in (select id from creds)) as credentials,
       (select array_agg(distinct upper(coalesce(cp.card_brand, 'card')) || ' •••• ' || cp.card_last4)
        from card_payments cp where cp.payment_id in (select id from ps) and cp.card_last4 is not null) as cards,
       count(*) filter (where l.kind = 'charge')::int as charges,
       coalesce(sum(l.amount_micros) filter (where l.kind = 'charge'), 0)::text as charged,
       count(*) filter (where l.kind = 'refund')::int as refunds,
       coalesce(sum(l.amount_micros) filter (where l.kind = 'refund'), 0)::text as refunded,
       count(*) filter (where l.kind = 'draw')::int as draws,
       coalesce(sum(l.amount_micros) filter (where l.kind = 'draw'), 0)::text as drawn,
       to_char(min(l.created_at) filter (where l.kind in ('charge', 'draw')), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_at,
       to_char(max(l.created_at) filter (where l.kind in ('charge', 'draw')), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
     from ledger_entries l where l.seller_id = $1 and l.payment_id in (select id from ps)`,
    [sellerId, key.kind, key.value],
  );
  const r = rows[0]!;
  const credentials = r.credentials ?? [];
  return {
    exists: r.payments > 0 || credentials.length > 0,
    credentials,
    cards: r.cards ?? [],
    charges: r.charges,
    chargedMicros: BigInt(r.charged),
    refunds: r.refunds,
    refundedMicros: BigInt(r.refunded),
    draws: r.draws,
    drawnMicros: BigInt(r.drawn),
    firstAt: r.first_at ? new Date(r.first_at) : null,
    lastAt: r.last_at ? new Date(r.last_at) : null,
  };
}

/** `remainingMicros` counts what instances hold in leases and have not recorded as spent (`heldMicros` of it). */
export type CustomerPlanRow = { plan: string; boughtMicros: bigint; remainingMicros: bigint; heldMicros: bigint; expiresAt: Date; live: boolean };

/** The plan credit the customer's credentials bought (a person's credentials share it), newest first. */
export async function findCustomerPlans(sellerId: string, key: CustomerKey): Promise<CustomerPlanRow[]> {
  const { rows } = await sql<{ plan: string; bought: string; remaining: string; held: string; expires_at: string; live: boolean }>(
    `with ${CUSTOMER_CTES}
     select pl.name as plan, g.amount_micros::text as bought, (g.remaining_micros + h.held)::text as remaining, h.held::text as held, to_char(g.expires_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at,
       g.expires_at > now() at time zone 'UTC' as live
     from credit_grants g join plans pl on pl.id = g.plan_id
     cross join lateral (select coalesce(sum(l.amount_micros - l.spent_micros), 0) as held from credit_leases l where l.grant_id = g.id and l.returned_at is null) h
     where g.seller_id = $1 and (g.credential_id in (select id from creds) or g.source_payment_id in (select id from ps))
     order by g.created_at desc, g.id desc limit 100`,
    [sellerId, key.kind, key.value],
  );
  return rows.map((r) => ({
    plan: r.plan,
    boughtMicros: BigInt(r.bought),
    remainingMicros: BigInt(r.remaining),
    heldMicros: BigInt(r.held),
    expiresAt: new Date(r.expires_at),
    live: r.live,
  }));
}

export type CustomerPaymentRow = {
  id: string;
  createdAt: Date;
  operationKey: string;
  amountMicros: bigint;
  rail: string | null;
  status: string;
  refundedAt: Date | null;
  refundedMicros: bigint | null;
};

/** The customer's latest payments that moved money (not unpaid 402s, not draws on credit), newest first. */
export async function findCustomerPayments(sellerId: string, key: CustomerKey, implicitRails: readonly string[], take: number): Promise<CustomerPaymentRow[]> {
  const { rows } = await sql<{
    id: string;
    created_at: string;
    operation_key: string;
    amount_micros: string;
    rail: string | null;
    status: string;
    refunded_at: string | null;
    refunded: string | null;
  }>(
    `with ${CUSTOMER_CTES}
     select p.id, to_char(p.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, p.operation_key, p.amount_micros::text, p.rail, p.status::text as status,
       to_char(r.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as refunded_at, r.amount_micros::text as refunded
     from payments p left join ledger_entries r on r.payment_id = p.id and r.kind = 'refund'
     where p.seller_id = $1 and p.id in (select id from ps) and p.status <> ${stateSql("challenged")}
       and (p.rail is null or p.rail <> all($4::text[]))
     order by p.created_at desc, p.id desc limit $5`,
    [sellerId, key.kind, key.value, implicitRails, take],
  );
  return rows.map((r) => ({
    id: r.id,
    createdAt: new Date(r.created_at),
    operationKey: r.operation_key,
    amountMicros: BigInt(r.amount_micros),
    rail: r.rail,
    status: r.status,
    refundedAt: r.refunded_at ? new Date(r.refunded_at) : null,
    refundedMicros: r.refunded === null ? null : BigInt(r.refunded),
  }));
}
