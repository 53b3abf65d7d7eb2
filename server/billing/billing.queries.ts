// The only file of the billing domain that touches the database: plan purchases, credit grants, included units,
// and the plan-covered calls' reservations (payments on the `credits` rail). Every balance change is one statement,
// guarded by the balance itself (`remaining_micros >= price`), so no concurrency can overspend a grant.
import { db, sql, type Tx } from "../db/client";
import { newId } from "../lib/ids";
import { initialStateSql, statesSql, transition } from "../payments/payment-state";

const RELEASE = transition("verified", "released");
const CAPTURE = transition("verified", "consumed");
/** A credential's calls that were paid (and perhaps refunded since). */
const PAID_OR_REFUNDED = statesSql(["settled", "consumed", "refunded"]);

/** The payment fields of a plan-covered call, as the gateway computed them. */
export type DrawRequest = {
  paymentId: string;
  sellerId: string;
  credentialId: string;
  /** The human the access token names (claimed credentials only): their other credentials' grants and free units. */
  humanId: string | null;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  meterKey: string;
  priceMicros: bigint;
  /** The meter's free units per claimed human (the catalog's current value). */
  includedUnits: number;
  leaseSeconds: number;
};

export type DrawResult =
  | { type: "reserved"; source: "included"; paymentId: string }
  /** `remainingMicros`: the credit left for this meter once this call's price is reserved, over every covering grant. */
  | { type: "reserved"; source: "credit"; paymentId: string; remainingMicros: bigint }
  | { type: "uncovered" }
  | { type: "credential_invalid" };

/**
 * One round trip: check the credential (this seller's, not revoked, not expired), take a free included unit if the
 * human has one left, else debit the price from the covering grants, first to expire first, as many as it takes
 * (guarded: never below zero; concurrent draws lock the same grants in the same order and re-read them), and write the
 * held payment with what each grant gave. Nothing is written when nothing covers the call.
 */
export async function reserveDraw(r: DrawRequest): Promise<DrawResult> {
  const { rows } = await sql<{ cred_ok: boolean; included: boolean; remaining: string | null; payment_id: string | null }>(
    `with c as (
       select id from agent_credentials
       where id = $1 and seller_id = $2 and revoked_at is null and (expires_at is null or expires_at > now() at time zone 'UTC')
     ), inc as (
       insert into included_unit_usage (seller_id, human_id, meter_key, used, updated_at)
       select $2, $3, $4, 1, now() at time zone 'UTC' from c where $3::text is not null and $6::int > 0
       on conflict (seller_id, human_id, meter_key) do update set used = included_unit_usage.used + 1, updated_at = now() at time zone 'UTC'
         where included_unit_usage.used < $6::int
       returning 1 as ok
     ), covering as materialized (
       -- Every live grant of the credential (or its human) whose plan covers the meter, locked in the order they are
       -- drawn (first to expire first): concurrent draws lock them in the same order and re-read them once locked.
       select g2.id, g2.remaining_micros, g2.expires_at, g2.created_at
       from credit_grants g2
       join agent_credentials owner on owner.id = g2.credential_id
       where exists (select 1 from c) and not exists (select 1 from inc) and g2.seller_id = $2 and g2.remaining_micros > 0
         and g2.expires_at > now() at time zone 'UTC'
         and (g2.credential_id = $1 or ($3::text is not null and owner.human_id = $3))
         and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = $4)
       order by g2.expires_at, g2.created_at, g2.id
       for update of g2
     ), running as (
       select id, remaining_micros, sum(remaining_micros) over (order by expires_at, created_at, id) - remaining_micros as before,
         sum(remaining_micros) over () as total
       from covering
     ), take as (
       -- The price from as many grants as it takes, in that order (a grant's leftover below the price is not stranded);
       -- nothing unless together they cover it.
       select id, least(remaining_micros, $5::bigint - before) as amount, total from running
       where before < $5::bigint and total >= $5::bigint
     ), g as (
       update credit_grants set remaining_micros = credit_grants.remaining_micros - take.amount
       from take where credit_grants.id = take.id
       returning credit_grants.id, take.amount, take.total
     ), p as (
       insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, credential_id, payer, lock_key, rail_data,
         expires_at, verified_at, locked_until, created_at, updated_at)
       select $7, $2, ${initialStateSql("verified")}, 'credits', $8, $9, $10, $11, $4,
         case when exists (select 1 from inc) then 0 else $5::bigint end, $1, $1, 'credits:' || $7,
         case when exists (select 1 from inc) then jsonb_build_object('source', 'included', 'humanId', $3::text)
              else jsonb_build_object('source', 'credit', 'grants', (select jsonb_agg(jsonb_build_object('id', id, 'amount', amount::text)) from g)) end,
         (now() at time zone 'UTC') + interval '1 day', now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => $12),
         now() at time zone 'UTC', now() at time zone 'UTC'
       where exists (select 1 from inc) or exists (select 1 from g)
       returning id
     )
     select exists (select 1 from c) as cred_ok, exists (select 1 from inc) as included,
       (select (min(total) - $5::bigint)::text from g) as remaining, (select id from p) as payment_id`,
    [r.credentialId, r.sellerId, r.humanId, r.meterKey, r.priceMicros, r.includedUnits, r.paymentId, r.method, r.path, r.query, r.operationKey, r.leaseSeconds],
    "billing_reserve_draw",
  );
  const row = rows[0]!;
  if (!row.cred_ok) return { type: "credential_invalid" };
  if (!row.payment_id) return { type: "uncovered" };
  if (row.included) return { type: "reserved", source: "included", paymentId: row.payment_id };
  return { type: "reserved", source: "credit", paymentId: row.payment_id, remainingMicros: BigInt(row.remaining!) };
}

/**
 * Whether the credential (or its human) holds a live grant of a plan covering the meter at all: tells "your plan's
 * credit ran out" (usage_exhausted) from "no plan covers this" when a draw found nothing. Only on that path.
 */
export async function hasCoveringGrant(sellerId: string, credentialId: string, humanId: string | null, meterKey: string): Promise<boolean> {
  const { rows } = await sql(
    `select 1 from credit_grants g2 join agent_credentials owner on owner.id = g2.credential_id
     where g2.seller_id = $1 and g2.expires_at > now() at time zone 'UTC' and (g2.credential_id = $2 or ($3::text is not null and owner.human_id = $3))
       and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = $4)
     limit 1`,
    [sellerId, credentialId, humanId, meterKey],
  );
  return rows.length > 0;
}

/**
 * verified -> released, and the reservation back where it came from (the grant's balance, or the free unit), in one
 * statement. Only a held draw that was not captured can be released.
 */
export async function releaseDraw(paymentId: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>(
    `with p as (
       update payments set status = ${RELEASE.set}, failure_reason = $2, upstream_status = $3, locked_until = null, updated_at = now() at time zone 'UTC'
       where id = $1 and ${RELEASE.guard()} and rail = 'credits'
       returning id, seller_id, meter_key, amount_micros, rail_data
     ), back as (
       -- What each grant gave (rail_data.grants); a draw written before draws could span grants names one grantId.
       select e->>'id' as grant_id, (e->>'amount')::bigint as amount
       from p, jsonb_array_elements(coalesce(p.rail_data->'grants', '[]'::jsonb)) e where p.rail_data->>'source' = 'credit'
       union all
       select p.rail_data->>'grantId', p.amount_micros from p where p.rail_data->>'source' = 'credit' and p.rail_data ? 'grantId'
     ), locked as materialized (
       -- Locked in the order draws lock them (reserveDraw), so a release and a draw on the same grants never deadlock.
       select g2.id from credit_grants g2 where g2.id in (select grant_id from back) order by g2.expires_at, g2.created_at, g2.id for update
     ), g as (
       update credit_grants set remaining_micros = credit_grants.remaining_micros + back.amount
       from back join locked on locked.id = back.grant_id where credit_grants.id = back.grant_id
       returning 1
     ), i as (
       update included_unit_usage set used = included_unit_usage.used - 1, updated_at = now() at time zone 'UTC'
       from p where p.rail_data->>'source' = 'included' and included_unit_usage.seller_id = p.seller_id
         and included_unit_usage.human_id = p.rail_data->>'humanId' and included_unit_usage.meter_key = p.meter_key and included_unit_usage.used > 0
       returning 1
     )
     select id from p`,
    [paymentId, reason, upstreamStatus ?? null],
    "billing_release_draw",
  );
  return rows.length === 1;
}

/**
 * verified -> consumed for served draws, with their ledger `draw` rows, in one statement for a whole batch. A draw
 * moves no money (the money came in with the purchase, as a `charge`): the row records usage against prepaid credit.
 */
export async function captureDraws(draws: { paymentId: string; units: number; upstreamStatus: number }[]): Promise<number> {
  if (!draws.length) return 0;
  const { rowCount } = await sql(
    `with v as (
       select * from unnest($1::text[], $2::int[], $3::int[], $4::text[]) as v(id, units, status, ledger_id)
     ), p as (
       update payments set status = ${CAPTURE.set}, settled_at = now() at time zone 'UTC', upstream_status = v.status, locked_until = null,
         updated_at = now() at time zone 'UTC'
       from v where payments.id = v.id and ${CAPTURE.guard("payments.status")} and payments.rail = 'credits'
       returning payments.id, payments.seller_id, payments.rail, payments.operation_key, payments.payer, payments.meter_key, payments.amount_micros,
         payments.currency, v.units, v.ledger_id
     )
     insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, created_at)
     select p.ledger_id, p.seller_id, p.id, 'draw', p.rail, p.operation_key, p.payer, p.meter_key, p.units, p.amount_micros, p.currency,
       now() at time zone 'UTC' from p`,
    [draws.map((d) => d.paymentId), draws.map((d) => d.units), draws.map((d) => d.upstreamStatus), draws.map(() => newId("led"))],
    "billing_capture_draws",
  );
  return rowCount;
}

// ---------- purchases ----------

export type PlanPurchaseRow = { paymentId: string; planId: string; credentialId: string; kind: string; amountMicros: bigint };

/** What a purchase challenge is for; written with the challenge, read when its payment is charged. */
export async function createPlanPurchase(p: PlanPurchaseRow & { sellerId: string }): Promise<void> {
  await db.planPurchase.create({
    data: { paymentId: p.paymentId, sellerId: p.sellerId, planId: p.planId, credentialId: p.credentialId, kind: p.kind, amountMicros: p.amountMicros },
  });
}

/** A purchase with the rail and transaction of the payment that paid it (a replay answers what the purchase answered). */
export async function findPlanPurchase(paymentId: string) {
  return db.planPurchase.findUnique({ where: { paymentId }, include: { payment: { select: { rail: true, transaction: true } } } });
}

export type GrantRow = {
  id: string;
  planId: string;
  credentialId: string;
  sourcePaymentId: string;
  amountMicros: bigint;
  remainingMicros: bigint;
  expiresAt: Date;
  createdAt: Date;
};

const grantSelect = {
  id: true,
  planId: true,
  credentialId: true,
  sourcePaymentId: true,
  amountMicros: true,
  remainingMicros: true,
  expiresAt: true,
  createdAt: true,
} as const;

export async function findGrantByPayment(paymentId: string): Promise<GrantRow | null> {
  return db.creditGrant.findUnique({ where: { sourcePaymentId: paymentId }, select: grantSelect });
}

/** Live grants usable by a credential: its own, and those of every credential the same human claimed here. */
export async function findUsableGrants(sellerId: string, credentialIds: string[]): Promise<GrantRow[]> {
  return db.creditGrant.findMany({
    where: { sellerId, credentialId: { in: credentialIds }, expiresAt: { gt: new Date() } },
    select: grantSelect,
    orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }],
  });
}

export async function findIncludedUsage(sellerId: string, humanId: string): Promise<{ meterKey: string; used: number }[]> {
  return db.includedUnitUsage.findMany({ where: { sellerId, humanId }, select: { meterKey: true, used: true } });
}

export type GrantWithPlan = GrantRow & { plan: { id: string; slug: string; name: string; status: string; meters: string[] } };

/** Live grants for entitlements, with their plan (retired plans included: credit bought on them keeps working). */
export async function findGrantsWithPlans(sellerId: string, credentialIds: string[]): Promise<GrantWithPlan[]> {
  const rows = await db.creditGrant.findMany({
    where: { sellerId, credentialId: { in: credentialIds }, expiresAt: { gt: new Date() } },
    select: { ...grantSelect, plan: { select: { id: true, slug: true, name: true, status: true, meters: { select: { meter: { select: { key: true } } } } } } },
    orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }],
  });
  return rows.map((r) => ({
    ...r,
    plan: { id: r.plan.id, slug: r.plan.slug, name: r.plan.name, status: r.plan.status, meters: r.plan.meters.map((m) => m.meter.key).sort() },
  }));
}

/**
 * The CTE that credits a plan purchase in the statement that records its charge (every rail's charge statement uses
 * it): `p` is the CTE of the payment just charged, `idParam` the placeholder of the new grant's id. Paid once,
 * credited once: the grant is unique per source payment. The plan row is read FOR SHARE: a plan change holds it FOR
 * UPDATE, so a meter removal racing this purchase waits for the grant and then sees it (and refuses), rather than
 * passing its "no live credit" check just before the grant commits and stranding the new credit.
 */
export function grantForChargeSql(idParam: string): string {
  return `grant_made as (
       insert into credit_grants (id, seller_id, plan_id, credential_id, source_payment_id, amount_micros, remaining_micros, expires_at, created_at)
       select ${idParam}, pp.seller_id, pp.plan_id, pp.credential_id, pp.payment_id, pp.amount_micros, pp.amount_micros,
         (now() at time zone 'UTC') + make_interval(days => pl.credit_validity_days), now() at time zone 'UTC'
       from p join plan_purchases pp on pp.payment_id = p.id join plans pl on pl.id = pp.plan_id
       for share of pl
       on conflict (source_payment_id) do nothing
       returning 1
     )`;
}

/**
 * A refunded plan purchase takes its credit back, in the refund's transaction: the grant ends now and holds nothing.
 * Ending it (rather than only zeroing it) keeps a reservation released later from bringing spendable credit back.
 */
export async function revokePurchasedCredit(tx: Tx, paymentId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `update credit_grants set remaining_micros = 0, expires_at = least(expires_at, now() at time zone 'UTC') where source_payment_id = $1`,
    paymentId,
  );
}

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
