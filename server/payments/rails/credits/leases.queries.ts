// Leased plan credit's statements (./lease-book.ts, README "Leased credit"): one statement writes the calls an instance
// spent from its leases (consumed payments with their ledger `draw` rows and svc-receipt), returns the leases it is
// done with (what they did not spend back to their grant) and, when asked, takes a new lease from the first covering
// grant, in one round trip and one commit. Lease rows are locked first (id order), grants after them in the order every
// draw locks them (expiry, creation, id), so leases, draws and releases queue instead of deadlocking.
import { listen, sql } from "../../../db/client";
import { env } from "../../../env";
import { newId } from "../../../lib/ids";
import { stateSql } from "../../payment-state";

/** A call served from a lease, as its batch records it. */
export type LeasedCall = {
  paymentId: string;
  leaseId: string;
  sellerId: string;
  credentialId: string;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  meterKey: string;
  priceMicros: bigint;
  transport: "http" | "mcp";
  units: number;
  upstreamStatus: number;
  receipt: string | null;
  servedAt: Date;
};

/** A lease to take: for this credential (and its human's grants when the token names one), on this meter. */
export type LeaseAsk = {
  leaseId: string;
  sellerId: string;
  credentialId: string;
  humanId: string | null;
  meterKey: string;
  priceMicros: bigint;
  instanceId: string;
};

export type SyncResult = {
  recorded: number;
  returned: number;
  /** What the ask got: a lease, or why not (nothing written for it). */
  lease:
    | { type: "leased"; grantId: string; amountMicros: bigint; ms: number; balanceMicros: bigint; credentialHumanId: string | null }
    | { type: "credential_invalid" }
    /** Leasing is off at this seller, or a budget, an approval threshold or a wallet cap applies: per-call path. */
    | { type: "not_leasable" }
    | { type: "uncovered" }
    /**
     * No lease, but a covering grant changed between the statement's snapshot and its lock: a concurrent lease or draw
     * took the credit it saw, and credit it could not see (returned, bought meanwhile) may be there. Ask again at once.
     */
    | { type: "contended" }
    | null;
};

// Named in its text: pg_stat_activity shows it (its first kilobyte) while it waits on a lock.
const SYNC = `/* billing_sync_leases */ with v as (
  select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[],
    $11::text[], $12::int[], $13::int[], $14::text[], $15::text[], $16::text[])
    as v(payment_id, lease_id, seller_id, credential_id, method, path, query, operation_key, meter_key, price, transport, units, status, receipt, ledger_id, served_at)
), ret as (select unnest($17::text[]) as id
), recorded as (select lease_id, sum(price)::bigint as s from v group by lease_id
), lk as materialized (
  select cl.id from credit_leases cl where cl.returned_at is null and (cl.id in (select id from ret) or cl.id in (select lease_id from recorded))
  order by cl.id for update
), l as (
  -- Only a lease not yet returned takes its calls (returned by the reconciler first: they are not charged).
  update credit_leases cl set spent_micros = cl.spent_micros + coalesce((select r.s from recorded r where r.lease_id = cl.id), 0),
    returned_at = case when cl.id in (select id from ret) then now() at time zone 'UTC' end
  from lk where cl.id = lk.id
  returning cl.id, cl.grant_id, cl.amount_micros, cl.spent_micros, cl.returned_at is not null as returned
), p as (
  insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, credential_id, payer, lock_key, rail_data,
    expires_at, verified_at, settled_at, upstream_status, receipt, created_at, updated_at, transport)
  select v.payment_id, v.seller_id, ${stateSql("consumed")}, 'credits', v.method, v.path, v.query, v.operation_key, v.meter_key, v.price, v.credential_id,
    v.credential_id, 'credits:' || v.payment_id, jsonb_build_object('source', 'lease', 'lease', v.lease_id, 'grantId', l.grant_id),
    (now() at time zone 'UTC') + interval '1 day', v.served_at::timestamptz at time zone 'UTC', now() at time zone 'UTC', v.status, v.receipt,
    v.served_at::timestamptz at time zone 'UTC', now() at time zone 'UTC', v.transport
  from v join l on l.id = v.lease_id
  returning id, seller_id, rail, operation_key, payer, meter_key, amount_micros, currency
), led as (
  insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, created_at)
  select v.ledger_id, p.seller_id, p.id, 'draw', p.rail, p.operation_key, p.payer, p.meter_key, v.units, p.amount_micros, p.currency, now() at time zone 'UTC'
  from p join v on v.payment_id = p.id
), back as (
  select grant_id, sum(amount_micros - spent_micros)::bigint as b from l where returned group by grant_id
), c as (
  select a.id, a.human_id from agent_credentials a
  where $18::text is not null and a.id = $20 and a.seller_id = $19 and a.revoked_at is null
    and (a.expires_at is null or a.expires_at > now() at time zone 'UTC') and not exists (select 1 from credential_freezes f where f.credential_id = a.id)
), terms as (
  select coalesce(s.credit_lease_calls, $25::int) as calls, coalesce(s.credit_lease_ms, $26::int) as ms from (select 1) one left join seller_settings s on s.seller_id = $19
), blocked as (
  -- The simplest correct cut: a credential some per-call control applies to keeps the per-call path.
  select (select calls <= 0 or ms <= 0 from terms)
    or exists (select 1 from budgets b, c where b.seller_id = $19 and ((b.scope = 'credential' and b.subject = c.id) or (b.scope = 'person' and b.subject = c.human_id)))
    or exists (select 1 from approval_thresholds t, c where t.seller_id = $19 and t.human_id = c.human_id and t.scope in (c.id, '*'))
    or exists (select 1 from wallet_caps w, c where w.seller_id = $19 and w.human_id = c.human_id) as yes
), covering as (
  select g2.id, g2.remaining_micros as seen from credit_grants g2 join agent_credentials owner on owner.id = g2.credential_id
  where exists (select 1 from c) and not (select yes from blocked) and g2.seller_id = $19
    and (g2.remaining_micros >= $23::bigint or g2.id in (select grant_id from back))
    and g2.expires_at > (now() at time zone 'UTC') + make_interval(secs => (select ms from terms) / 1000.0)
    and (g2.credential_id = $20 or ($21::text is not null and owner.human_id = $21))
    and exists (select 1 from plan_meters pm join meters m on m.id = pm.meter_id where pm.plan_id = g2.plan_id and m.key = $22)
), locked as materialized (
  select g.id, g.remaining_micros, g.expires_at, g.created_at from credit_grants g
  where g.id in (select id from covering) or g.id in (select grant_id from back)
  order by g.expires_at, g.created_at, g.id for update
), avail as (
  -- From the balance as locked (credits.queries.ts reserveDraw: constraints are checked on the snapshot's version first).
  select x.id, x.expires_at, x.created_at, x.remaining_micros + coalesce(back.b, 0) as avail, x.id in (select id from covering) as covers
  from locked x left join back on back.grant_id = x.id
), take as (
  select a.id, least((select calls from terms)::bigint * $23::bigint, a.avail - a.avail % $23::bigint) as amount from avail a
  where a.covers and $23::bigint > 0 and a.avail >= $23::bigint order by a.expires_at, a.created_at, a.id limit 1
), g as (
  update credit_grants set remaining_micros = a.avail - coalesce(t.amount, 0)
  from avail a left join take t on t.id = a.id
  where credit_grants.id = a.id and (t.id is not null or a.id in (select grant_id from back))
  returning credit_grants.id
), nl as (
  insert into credit_leases (id, seller_id, credential_id, human_id, meter_key, grant_id, instance_id, amount_micros, expires_at, created_at)
  select $18, $19, $20, $21, $22, t.id, $24, t.amount, (now() at time zone 'UTC') + make_interval(secs => (select ms from terms) / 1000.0), now() at time zone 'UTC'
  from take t
  returning id
)
select exists (select 1 from c) as cred_ok, (select human_id from c) as human_id, (select yes from blocked) as blocked, (select ms from terms) as ms,
  (select amount::text from take) as amount, (select id from take) as grant_id, (select id from nl) as lease_id,
  (coalesce((select sum(avail) from avail where covers), 0) - coalesce((select amount from take), 0))::text as balance,
  (select count(*) from p)::int as recorded, (select count(*) from l where returned)::int as returned,
  -- Lost to a concurrent writer: a covering grant as locked is not the one the snapshot saw (READ COMMITTED locks the
  -- newest version; grants that were below the price in the snapshot were never looked at).
  exists (select 1 from locked x join covering cv on cv.id = x.id where x.remaining_micros <> cv.seen) as contended`;

type SyncRow = {
  cred_ok: boolean;
  human_id: string | null;
  blocked: boolean | null;
  ms: number;
  amount: string | null;
  grant_id: string | null;
  lease_id: string | null;
  balance: string;
  recorded: number;
  returned: number;
  contended: boolean;
};

/** PostgreSQL's codes for losing a lock to another transaction (deadlock, serialization, lock not available). */
const LOCK_LOST = new Set(["40P01", "40001", "55P03"]);

/** The statement failed because another transaction held what it locks: asking again is the remedy, not backing off. */
export function lostLockRace(e: unknown): boolean {
  return typeof e === "object" && e !== null && LOCK_LOST.has(String((e as { code?: unknown }).code));
}

/** Record `calls`, return `returns`, and take a lease if `ask` is given: one statement, one commit. */
export async function syncLeases(calls: LeasedCall[], returns: string[], ask: LeaseAsk | null): Promise<SyncResult> {
  const col = <K extends keyof LeasedCall>(k: K) => calls.map((c) => c[k]);
  const { rows } = await sql<SyncRow>(
    SYNC,
    [
      col("paymentId"),
      col("leaseId"),
      col("sellerId"),
      col("credentialId"),
      col("method"),
      col("path"),
      col("query"),
      col("operationKey"),
      col("meterKey"),
      calls.map((c) => c.priceMicros.toString()),
      col("transport"),
      col("units"),
      col("upstreamStatus"),
      col("receipt"),
      calls.map(() => newId("led")),
      calls.map((c) => c.servedAt.toISOString()),
      returns,
      ask?.leaseId ?? null,
      ask?.sellerId ?? null,
      ask?.credentialId ?? null,
      ask?.humanId ?? null,
      ask?.meterKey ?? null,
      (ask?.priceMicros ?? 0n).toString(),
      ask?.instanceId ?? null,
      env().CREDIT_LEASE_CALLS,
      env().CREDIT_LEASE_MS,
    ],
    "billing_sync_leases",
  );
  const row = rows[0]!;
  const base = { recorded: row.recorded, returned: row.returned };
  if (!ask) return { ...base, lease: null };
  if (!row.cred_ok) return { ...base, lease: { type: "credential_invalid" } };
  if (row.blocked) return { ...base, lease: { type: "not_leasable" } };
  if (!row.lease_id) return { ...base, lease: { type: row.contended ? "contended" : "uncovered" } };
  return {
    ...base,
    lease: {
      type: "leased",
      grantId: row.grant_id!,
      amountMicros: BigInt(row.amount!),
      ms: row.ms,
      balanceMicros: BigInt(row.balance),
      credentialHumanId: row.human_id,
    },
  };
}

/**
 * Leases whose instance did not return them (it crashed, or lost the database) `graceSeconds` after their time: what
 * they did not record as spent goes back to their grants. Calls an instance served and had not recorded are not
 * charged (the buyer's favour, README).
 */
export async function returnLapsedLeases(graceSeconds: number, limit = 100): Promise<number> {
  const { rows } = await sql<{ id: string }>(
    `select id from credit_leases where returned_at is null and expires_at < (now() at time zone 'UTC') - make_interval(secs => $1) order by expires_at limit $2`,
    [graceSeconds, limit],
  );
  if (!rows.length) return 0;
  return (
    await syncLeases(
      [],
      rows.map((r) => r.id),
      null,
    )
  ).returned;
}

/** What drops leases: the person's controls (freeze, revoke, budgets, thresholds) and the catalog (plans, settings). */
export function listenForLeaseNotices(book: {
  onControls(payload: string): void;
  onCatalog(sellerId: string): void;
  setListening(channel: string, listening: boolean): void;
}): () => void {
  const stops = [
    listen(
      "human_controls_changed",
      (m) => book.onControls(m),
      (s) => book.setListening("controls", s === "listening"),
    ),
    listen(
      "catalog_changed",
      (m) => book.onCatalog(m),
      (s) => book.setListening("catalog", s === "listening"),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}
