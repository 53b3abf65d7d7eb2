// The credits rail's statements: a plan-covered call's reservation (a payment on the `credits` rail, drawn from the
// covering grants or a free included unit), its release and its capture. Every balance change is one statement,
// guarded by the balance itself (`remaining_micros >= price`), so no concurrency can overspend a grant.
import { UNIQUE_VIOLATION } from "../../../db/client";
import { run, statement } from "../../../db/statement";
import { newId } from "../../../lib/ids";
import { initialStateSql, transition } from "../../payment-state";

const RELEASE = transition("verified", "released");
const CAPTURE = transition("verified", "consumed");

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
  /** The lock this draw takes (an Idempotency-Key's, ./draw-credits.ts), or null for one of its own. */
  lockKey?: string | null;
  /** How the call came (paid-call.ts `Transport`); absent: http. */
  transport?: "http" | "mcp";
};

export type DrawResult =
  | { type: "reserved"; source: "included"; paymentId: string }
  /** `remainingMicros`: the credit left for this meter once this call's price is reserved, over every covering grant. */
  | { type: "reserved"; source: "credit"; paymentId: string; remainingMicros: bigint }
  | { type: "uncovered" }
  | { type: "credential_invalid" }
  /** Another draw holds this lock key (the same Idempotency-Key, at once): nothing was written. */
  | { type: "lock_taken" };

type DrawParams = {
  credential: string;
  seller: string;
  human: string | null;
  meter: string;
  price: bigint;
  included_units: number;
  id: string;
  method: string;
  path: string;
  query: string;
  operation: string;
  lease: number;
  lock_key: string | null;
  transport: string;
};

const RESERVE_DRAW = statement<DrawParams>(
  `with c as (
       select id from agent_credentials
       where id = :credential and seller_id = :seller and revoked_at is null and (expires_at is null or expires_at > now() at time zone 'UTC')
     ), inc as (
       insert into included_unit_usage (seller_id, human_id, meter_key, used, updated_at)
       select :seller, :human, :meter, 1, now() at time zone 'UTC' from c where :human::text is not null and :included_units::int > 0
       on conflict (seller_id, human_id, meter_key) do update set used = included_unit_usage.used + 1, updated_at = now() at time zone 'UTC'
         where included_unit_usage.used < :included_units::int
       returning 1 as ok
     ), covering as materialized (
       -- Every live grant of the credential (or its human) whose plan covers the meter, locked in the order they are
       -- drawn (first to expire first): concurrent draws lock them in the same order and re-read them once locked.
       select g2.id, g2.remaining_micros, g2.expires_at, g2.created_at
       from credit_grants g2
       join agent_credentials owner on owner.id = g2.credential_id
       where exists (select 1 from c) and not exists (select 1 from inc) and g2.seller_id = :seller and g2.remaining_micros > 0
         and g2.expires_at > now() at time zone 'UTC'
         and (g2.credential_id = :credential or (:human::text is not null and owner.human_id = :human))
         and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = :meter)
       order by g2.expires_at, g2.created_at, g2.id
       for update of g2
     ), running as (
       select id, remaining_micros, sum(remaining_micros) over (order by expires_at, created_at, id) - remaining_micros as before,
         sum(remaining_micros) over () as total
       from covering
     ), take as (
       -- The price from as many grants as it takes, in that order (a grant's leftover below the price is not stranded);
       -- nothing unless together they cover it.
       select id, remaining_micros, least(remaining_micros, :price::bigint - before) as amount, total from running
       where before < :price::bigint and total >= :price::bigint
     ), g as (
       -- From the balance as locked, not credit_grants.remaining_micros: the UPDATE reads the statement's snapshot and
       -- PostgreSQL checks constraints on that first version of the new row before it re-reads a row a committed
       -- release has raised meanwhile, so snapshot - amount can fail the >= 0 check although the balance covers it.
       update credit_grants set remaining_micros = take.remaining_micros - take.amount
       from take where credit_grants.id = take.id
       returning credit_grants.id, take.amount, take.total
     ), p as (
       insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, credential_id, payer, lock_key, rail_data,
         expires_at, verified_at, locked_until, created_at, updated_at, transport)
       select :id, :seller, ${initialStateSql("verified")}, 'credits', :method, :path, :query, :operation, :meter,
         case when exists (select 1 from inc) then 0 else :price::bigint end, :credential, :credential, coalesce(:lock_key::text, 'credits:' || :id),
         case when exists (select 1 from inc) then jsonb_build_object('source', 'included', 'humanId', :human::text)
              else jsonb_build_object('source', 'credit', 'grants', (select jsonb_agg(jsonb_build_object('id', id, 'amount', amount::text)) from g)) end,
         (now() at time zone 'UTC') + interval '1 day', now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => :lease),
         now() at time zone 'UTC', now() at time zone 'UTC', :transport
       where exists (select 1 from inc) or exists (select 1 from g)
       returning id
     )
     select exists (select 1 from c) as cred_ok, exists (select 1 from inc) as included,
       (select (min(total) - :price::bigint)::text from g) as remaining, (select id from p) as payment_id`,
  "billing_reserve_draw",
);

const COVERING_GRANT = statement<{ seller: string; credential: string; human: string | null; meter: string }>(
  `select 1 from credit_grants g2 join agent_credentials owner on owner.id = g2.credential_id
     where g2.seller_id = :seller and g2.expires_at > now() at time zone 'UTC' and (g2.credential_id = :credential or (:human::text is not null and owner.human_id = :human))
       and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = :meter)
     limit 1`,
);

type ReleaseParams = { id: string; reason: string; upstream_status: number | null };

const RELEASE_DRAW = statement<ReleaseParams>(
  `with p as (
       update payments set status = ${RELEASE.set}, failure_reason = :reason, upstream_status = :upstream_status, locked_until = null, updated_at = now() at time zone 'UTC'
       where id = :id and ${RELEASE.guard()} and rail = 'credits'
       returning id, seller_id, meter_key, amount_micros, rail_data
     ), back as (
       -- What each grant gave (rail_data.grants); a draw written before draws could span grants names one grantId.
       select e->>'id' as grant_id, (e->>'amount')::bigint as amount
       from p, jsonb_array_elements(coalesce(p.rail_data->'grants', '[]'::jsonb)) e where p.rail_data->>'source' = 'credit'
       union all
       select p.rail_data->>'grantId', p.amount_micros from p where p.rail_data->>'source' = 'credit' and p.rail_data ? 'grantId'
     ), locked as materialized (
       -- Locked in the order draws lock them (reserveDraw), so a release and a draw on the same grants never deadlock.
       select g2.id, g2.remaining_micros from credit_grants g2 where g2.id in (select grant_id from back) order by g2.expires_at, g2.created_at, g2.id for update
     ), g as (
       -- From the balance as locked (see reserveDraw: constraints are checked on the snapshot's version first).
       update credit_grants set remaining_micros = locked.remaining_micros + back.amount
       from back join locked on locked.id = back.grant_id where credit_grants.id = back.grant_id
       returning 1
     ), i as (
       update included_unit_usage set used = included_unit_usage.used - 1, updated_at = now() at time zone 'UTC'
       from p where p.rail_data->>'source' = 'included' and included_unit_usage.seller_id = p.seller_id
         and included_unit_usage.human_id = p.rail_data->>'humanId' and included_unit_usage.meter_key = p.meter_key and included_unit_usage.used > 0
       returning 1
     )
     select id from p`,
  "billing_release_draw",
);

const CAPTURE_DRAWS = statement<{ ids: string[]; units: number[]; statuses: number[]; ledger_ids: string[]; receipts: (string | null)[] }>(
  `with v as (
       select * from unnest(:ids::text[], :units::int[], :statuses::int[], :ledger_ids::text[], :receipts::text[]) as v(id, units, status, ledger_id, receipt)
     ), p as (
       update payments set status = ${CAPTURE.set}, settled_at = now() at time zone 'UTC', upstream_status = v.status, locked_until = null,
         receipt = coalesce(v.receipt, payments.receipt), updated_at = now() at time zone 'UTC'
       from v where payments.id = v.id and ${CAPTURE.guard("payments.status")} and payments.rail = 'credits'
       returning payments.id, payments.seller_id, payments.rail, payments.operation_key, payments.payer, payments.meter_key, payments.amount_micros,
         payments.currency, v.units, v.ledger_id
     )
     insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, created_at)
     select p.ledger_id, p.seller_id, p.id, 'draw', p.rail, p.operation_key, p.payer, p.meter_key, p.units, p.amount_micros, p.currency,
       now() at time zone 'UTC' from p`,
  "billing_capture_draws",
);

/**
 * One round trip: check the credential (this seller's, not revoked, not expired), take a free included unit if the
 * human has one left, else debit the price from the covering grants, first to expire first, as many as it takes
 * (guarded: never below zero; concurrent draws lock the same grants in the same order and re-read them), and write the
 * held payment with what each grant gave. Nothing is written when nothing covers the call.
 */
export async function reserveDraw(r: DrawRequest): Promise<DrawResult> {
  try {
    return await reserveDrawOnce(r);
  } catch (e) {
    // The whole statement is undone (grants, free units): a concurrent retry with the same key drew first.
    if ((e as { code?: string })?.code === UNIQUE_VIOLATION) return { type: "lock_taken" };
    throw e;
  }
}

async function reserveDrawOnce(r: DrawRequest): Promise<DrawResult> {
  const { rows } = await run<{ cred_ok: boolean; included: boolean; remaining: string | null; payment_id: string | null }, DrawParams>(RESERVE_DRAW, {
    credential: r.credentialId,
    seller: r.sellerId,
    human: r.humanId,
    meter: r.meterKey,
    price: r.priceMicros,
    included_units: r.includedUnits,
    id: r.paymentId,
    method: r.method,
    path: r.path,
    query: r.query,
    operation: r.operationKey,
    lease: r.leaseSeconds,
    lock_key: r.lockKey ?? null,
    transport: r.transport ?? "http",
  });
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
  const { rows } = await run(COVERING_GRANT, { seller: sellerId, credential: credentialId, human: humanId, meter: meterKey });
  return rows.length > 0;
}

/**
 * verified -> released, and the reservation back where it came from (the grant's balance, or the free unit), in one
 * statement. Only a held draw that was not captured can be released.
 */
export async function releaseDraw(paymentId: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const { rows } = await run<{ id: string }, ReleaseParams>(RELEASE_DRAW, { id: paymentId, reason, upstream_status: upstreamStatus ?? null });
  return rows.length === 1;
}

/**
 * verified -> consumed for served draws, with their ledger `draw` rows, in one statement for a whole batch. A draw
 * moves no money (the money came in with the purchase, as a `charge`): the row records usage against prepaid credit.
 */
/** The captures' statement also keeps each answer's signed receipt (GET /payments/{id}/receipt): no write of its own. */
export async function captureDraws(draws: { paymentId: string; units: number; upstreamStatus: number; receipt: string | null }[]): Promise<number> {
  if (!draws.length) return 0;
  const { rowCount } = await run(CAPTURE_DRAWS, {
    ids: draws.map((d) => d.paymentId),
    units: draws.map((d) => d.units),
    statuses: draws.map((d) => d.upstreamStatus),
    ledger_ids: draws.map(() => newId("led")),
    receipts: draws.map((d) => d.receipt),
  });
  return rowCount;
}
