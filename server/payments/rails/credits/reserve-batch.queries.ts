// Many plan-covered calls' reservations in one statement (./reserve-queue.ts batches the calls that arrive while the
// previous statement is in flight): the same rules as `reserveDraw` for each call, as if they had run one after the
// other in arrival order, with one round trip, one set of row locks and one commit for the batch.
import { run, statement } from "../../../db/statement";
import { initialStateSql } from "../../payment-state";
import type { DrawRequest } from "./credits.queries";

/** A call `reserveDraws` takes: no Idempotency-Key lock, no free included units to try (those reserve alone). */
export type BatchDrawRequest = Omit<DrawRequest, "lockKey" | "includedUnits">;

export type BatchDrawResult =
  | { type: "reserved"; source: "credit"; paymentId: string; remainingMicros: bigint }
  | { type: "uncovered" }
  | { type: "credential_invalid" }
  /**
   * Another call of the batch can draw on some of the same grants through another pool (another meter of the same
   * plan, or the same credential with and without its human): nothing was written for it; reserve it alone.
   */
  | { type: "alone" };

type BatchParams = Record<
  "ids" | "sellers" | "credentials" | "humans" | "meters" | "prices" | "methods" | "paths" | "queries" | "operations" | "leases" | "transports",
  unknown[]
>;

const RESERVE_DRAWS = statement<BatchParams>(
  `with calls as materialized (
       select v.*, v.seller_id || ' ' || coalesce('h:' || v.human_id, 'c:' || v.credential_id) || ' ' || v.meter_key as pool
       from unnest(:ids::text[], :sellers::text[], :credentials::text[], :humans::text[], :meters::text[], :prices::bigint[], :methods::text[], :paths::text[], :queries::text[], :operations::text[], :leases::int[], :transports::text[])
         with ordinality as v(payment_id, seller_id, credential_id, human_id, meter_key, price, method, path, query, operation_key, lease, transport, n)
     ), ok as (
       select calls.* from calls
       where exists (select 1 from agent_credentials a where a.id = calls.credential_id and a.seller_id = calls.seller_id and a.revoked_at is null
         and (a.expires_at is null or a.expires_at > now() at time zone 'UTC'))
     ), pools as (
       select pool, seller_id, human_id, meter_key, array_agg(distinct credential_id) as credentials from ok group by pool, seller_id, human_id, meter_key
     ), candidates as (
       -- Each pool's live grants: the credential's own, or its human's (any credential the human claimed at the seller).
       select pools.pool, g2.id
       from pools join credit_grants g2 on g2.seller_id = pools.seller_id
       join agent_credentials owner on owner.id = g2.credential_id
       where g2.remaining_micros > 0 and g2.expires_at > now() at time zone 'UTC'
         and (g2.credential_id = any (pools.credentials) or (pools.human_id is not null and owner.human_id = pools.human_id))
         and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = pools.meter_key)
     ), locked as materialized (
       -- Locked in the order every draw and release locks grants; once locked, re-read (a concurrent draw may have lowered them).
       select g2.id, g2.remaining_micros, g2.expires_at, g2.created_at from credit_grants g2
       where g2.id in (select id from candidates)
       order by g2.expires_at, g2.created_at, g2.id
       for update
     ), shared as (
       -- Pools that share a grant with another pool of this batch: their calls reserve alone, after this statement.
       select distinct c.pool from candidates c where c.id in (select id from candidates group by id having count(distinct pool) > 1)
     ), pool_grants as (
       select c.pool, l.id, l.remaining_micros, sum(l.remaining_micros) over w - l.remaining_micros as gstart, sum(l.remaining_micros) over (partition by c.pool) as total
       from candidates c join locked l on l.id = c.id
       where c.pool not in (select pool from shared)
       window w as (partition by c.pool order by l.expires_at, l.created_at, l.id)
     ), queue as (
       -- Each call's place in its pool's credit: where its price starts, after the pool's earlier calls in this batch.
       select ok.*, sum(ok.price) over (partition by ok.pool order by ok.n) - ok.price as cstart from ok where ok.pool not in (select pool from shared)
     ), served as (
       -- A call is served when its pool covers it and every earlier call of the pool: the running sum only grows, so its
       -- own end within the credit says both (a price of 0 is never a draw, as in reserveDraw).
       select q.*, t.total from queue q join (select distinct pool, total from pool_grants) t on t.pool = q.pool
       where q.price > 0 and q.cstart + q.price <= t.total
     ), parts as (
       -- What each grant gives each served call: the overlap of the call's span of the pool's credit with the grant's.
       select s.n, pg.id, pg.gstart, (least(s.cstart + s.price, pg.gstart + pg.remaining_micros) - greatest(s.cstart, pg.gstart))::bigint as amount
       from served s join pool_grants pg on pg.pool = s.pool
       where pg.remaining_micros > 0 and pg.gstart < s.cstart + s.price and pg.gstart + pg.remaining_micros > s.cstart
     ), g as (
       -- From the balance as locked (see reserveDraw: constraints are checked on the snapshot's version first).
       update credit_grants set remaining_micros = l.remaining_micros - d.amount
       from (select id, sum(amount)::bigint as amount from parts group by id) d join locked l on l.id = d.id
       where credit_grants.id = d.id
       returning credit_grants.id
     ), p as (
       insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, credential_id, payer, lock_key, rail_data,
         expires_at, verified_at, locked_until, created_at, updated_at, transport)
       select s.payment_id, s.seller_id, ${initialStateSql("verified")}, 'credits', s.method, s.path, s.query, s.operation_key, s.meter_key, s.price,
         s.credential_id, s.credential_id, 'credits:' || s.payment_id,
         jsonb_build_object('source', 'credit', 'grants',
           (select jsonb_agg(jsonb_build_object('id', parts.id, 'amount', parts.amount::text) order by parts.gstart) from parts where parts.n = s.n)),
         (now() at time zone 'UTC') + interval '1 day', now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => s.lease),
         now() at time zone 'UTC', now() at time zone 'UTC', s.transport
       from served s
       returning id
     )
     select calls.n::text, ok.n is not null as cred_ok, calls.pool in (select pool from shared) as alone,
       (s.total - s.cstart - s.price)::text as remaining, (select p.id from p where p.id = s.payment_id) as payment_id
     from calls left join ok on ok.n = calls.n left join served s on s.n = calls.n
     order by calls.n`,
  "billing_reserve_draws",
);

/**
 * One statement for a batch, each call with its own outcome, in the batch's order. Calls draw from a pool: the grants
 * covering their meter held by their credential or their human (one pool per seller, holder and meter). Per call, as
 * `reserveDraw`: the credential is checked (a revoked one is refused at once, whatever else the batch holds); the
 * price comes from the pool's grants, first to expire first, as many as it takes, never below zero. Within a pool the
 * calls are served in order while the pool's credit covers all of them so far: the first call it does not cover, and
 * every later one of that pool, is `uncovered` (the credit ran out mid-batch). Every grant the batch may draw is locked
 * at once in the one order draws and releases use (expiry, creation, id), so batches, single draws and releases on the
 * same grants queue instead of deadlocking; the balance each call sees is the one as locked.
 */
export async function reserveDraws(calls: BatchDrawRequest[]): Promise<BatchDrawResult[]> {
  if (!calls.length) return [];
  const col = <K extends keyof BatchDrawRequest>(k: K) => calls.map((c) => c[k] ?? null);
  const { rows } = await run<{ n: string; cred_ok: boolean; alone: boolean; remaining: string | null; payment_id: string | null }, BatchParams>(RESERVE_DRAWS, {
    ids: col("paymentId"),
    sellers: col("sellerId"),
    credentials: col("credentialId"),
    humans: col("humanId"),
    meters: col("meterKey"),
    prices: calls.map((c) => c.priceMicros.toString()),
    methods: col("method"),
    paths: col("path"),
    queries: col("query"),
    operations: col("operationKey"),
    leases: col("leaseSeconds"),
    transports: calls.map((c) => c.transport ?? "http"),
  });
  return rows.map((row): BatchDrawResult => {
    if (!row.cred_ok) return { type: "credential_invalid" };
    if (row.alone) return { type: "alone" };
    if (!row.payment_id) return { type: "uncovered" };
    return { type: "reserved", source: "credit", paymentId: row.payment_id, remainingMicros: BigInt(row.remaining!) };
  });
}
