// The budgets' statements on the paid path: reserve a call against every budget that applies to its credential (one
// guarded statement, row locks in id order), confirm it with what was charged, release it. Each keeps the windows'
// counters on the budget rows exact across instances: server/budgets/README.md.
import "server-only";
import { sql } from "../db/client";

/** A budget that applies to a call, as the reserving statement saw it (its window's spending before this call). */
export type AppliedBudget = {
  id: string;
  scope: "credential" | "person";
  perCallMicros: bigint | null;
  perDayMicros: bigint | null;
  perMonthMicros: bigint | null;
  dayUsedMicros: bigint;
  monthUsedMicros: bigint;
};

export type ReserveResult =
  /** The credential is unknown here, unclaimed or revoked: no person, no budget, no hold. */
  { type: "no_person" } | { type: "reserved"; holdId: string; budgets: AppliedBudget[] } | { type: "exceeded"; budgets: AppliedBudget[] };

type ReserveRow = {
  hold_id: string | null;
  has_person: boolean;
  ok: boolean;
  id: string | null;
  scope: "credential" | "person" | null;
  per_call_micros: string | null;
  per_day_micros: string | null;
  per_month_micros: string | null;
  day_used: string | null;
  month_used: string | null;
};

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

/**
 * Reserve `amountMicros` against the credential's budget and its person's, all or nothing: the rows are locked in id
 * order (FOR UPDATE returns their latest committed counts, so concurrent reservations on any instance queue here and
 * each sees the others'), every limit is checked, and only if all hold are the counters raised and the hold written.
 * A window that passed counts 0 and is moved to the current one by the same update.
 */
export async function reserveBudgetHold(h: {
  holdId: string;
  sellerId: string;
  credentialId: string;
  amountMicros: bigint;
  day: string;
  month: string;
  leaseUntil: Date;
  operationKey: string;
}): Promise<ReserveResult> {
  const { rows } = await sql<ReserveRow>(
    `with cred as (
       select id, human_id from agent_credentials
        where id = $2 and seller_id = $1 and status = 'claimed' and human_id is not null and revoked_at is null
     ),
     b as (
       select bu.id, bu.scope, bu.per_call_micros, bu.per_day_micros, bu.per_month_micros,
              case when bu.day_start = $4::date then bu.day_used_micros else 0 end as day_used,
              case when bu.month_start = $5::date then bu.month_used_micros else 0 end as month_used
         from budgets bu join cred on bu.seller_id = $1
          and ((bu.scope = 'credential' and bu.subject = cred.id) or (bu.scope = 'person' and bu.subject = cred.human_id))
        order by bu.id
          for update of bu
     ),
     verdict as (
       select coalesce(bool_and((per_call_micros is null or $3::bigint <= per_call_micros)
                            and (per_day_micros is null or day_used + $3::bigint <= per_day_micros)
                            and (per_month_micros is null or month_used + $3::bigint <= per_month_micros)), true) as ok
         from b
     ),
     upd as (
       update budgets x set day_start = $4::date, day_used_micros = b.day_used + $3::bigint,
                            month_start = $5::date, month_used_micros = b.month_used + $3::bigint
         from b where x.id = b.id and (select ok from verdict)
       returning x.id
     ),
     hold as (
       insert into budget_holds (id, seller_id, credential_id, human_id, budget_ids, amount_micros, day, month, lease_until, operation_key)
       select $6, $1, cred.id, cred.human_id, coalesce((select array_agg(b.id order by b.id) from b), '{}'), $3::bigint, $4::date, $5::date, $7, $8
         from cred where (select ok from verdict)
       returning id
     )
     select (select id from hold) as hold_id, exists (select 1 from cred) as has_person, (select ok from verdict) as ok,
            (select count(*) from upd) as updated,
            b.id, b.scope, b.per_call_micros::text, b.per_day_micros::text, b.per_month_micros::text, b.day_used::text, b.month_used::text
       from (select 1) one left join b on true`,
    [h.sellerId, h.credentialId, h.amountMicros.toString(), h.day, h.month, h.holdId, h.leaseUntil, h.operationKey],
    "budget_reserve",
  );
  const first = rows[0]!;
  if (!first.has_person) return { type: "no_person" };
  const budgets: AppliedBudget[] = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id!,
      scope: r.scope!,
      perCallMicros: big(r.per_call_micros),
      perDayMicros: big(r.per_day_micros),
      perMonthMicros: big(r.per_month_micros),
      dayUsedMicros: BigInt(r.day_used ?? "0"),
      monthUsedMicros: BigInt(r.month_used ?? "0"),
    }));
  if (!first.ok || !first.hold_id) return { type: "exceeded", budgets };
  return { type: "reserved", holdId: first.hold_id, budgets };
}

/**
 * A charged call by a credential no budget applies to: its line in the person's ledger (the account's spending and
 * receipts), confirmed at once, counted in no budget. One insert, no lock: nothing was reserved for it.
 */
export async function insertChargedCall(c: {
  holdId: string;
  sellerId: string;
  credentialId: string;
  humanId: string;
  chargedMicros: bigint;
  paymentId: string;
  rail: string;
  day: string;
  month: string;
  operationKey: string;
}): Promise<void> {
  await sql(
    `insert into budget_holds (id, seller_id, credential_id, human_id, budget_ids, amount_micros, charged_micros, day, month, state, payment_id, rail,
                               operation_key, lease_until, settled_at)
     values ($1, $2, $3, $4, '{}', $5::bigint, $5::bigint, $6::date, $7::date, 'confirmed', $8, $9, $10, now(), now())`,
    [c.holdId, c.sellerId, c.credentialId, c.humanId, c.chargedMicros.toString(), c.day, c.month, c.paymentId, c.rail, c.operationKey],
    "budget_ledger_line",
  );
}

/** A budget after a confirmation moved its counters: what the alerts compare with its limits. */
export type CountedBudget = {
  id: string;
  humanId: string;
  scope: "credential" | "person";
  subject: string;
  perDayMicros: bigint | null;
  perMonthMicros: bigint | null;
  dayStart: Date;
  dayUsedMicros: bigint;
  monthStart: Date;
  monthUsedMicros: bigint;
};

// Moves the counters of the holds `h` changed by each hold's `delta` (what it gives back; negative adds), only in
// the windows the hold was counted in: a window that has since passed is not touched.
const GIVE_BACK = `
     d as (select unnest(h.budget_ids) as bid, h.day, h.month, h.delta from h),
     upd as (
       update budgets b set
         day_used_micros = greatest(0, b.day_used_micros - coalesce((select sum(d.delta) from d where d.bid = b.id and d.day = b.day_start), 0)),
         month_used_micros = greatest(0, b.month_used_micros - coalesce((select sum(d.delta) from d where d.bid = b.id and d.month = b.month_start), 0))
        where b.id in (select bid from d)
       returning b.id, b.human_id, b.scope, b.subject, b.per_day_micros::text, b.per_month_micros::text, b.day_start, b.day_used_micros::text,
                 b.month_start, b.month_used_micros::text
     )`;

type CountedRow = {
  id: string;
  human_id: string;
  scope: "credential" | "person";
  subject: string;
  per_day_micros: string | null;
  per_month_micros: string | null;
  day_start: Date;
  day_used_micros: string;
  month_start: Date;
  month_used_micros: string;
};

function counted(r: CountedRow): CountedBudget {
  return {
    id: r.id,
    humanId: r.human_id,
    scope: r.scope,
    subject: r.subject,
    perDayMicros: big(r.per_day_micros),
    perMonthMicros: big(r.per_month_micros),
    dayStart: r.day_start,
    dayUsedMicros: BigInt(r.day_used_micros),
    monthStart: r.month_start,
    monthUsedMicros: BigInt(r.month_used_micros),
  };
}

/**
 * The call was charged `chargedMicros` (at most what was reserved): the hold is confirmed, and what it reserved beyond
 * that goes back. A hold the reconciler had released meanwhile (its instance outlived the lease) counts again: the
 * money moved. Returns the budgets as they stand after it.
 */
export async function confirmBudgetHold(holdId: string, c: { chargedMicros: bigint; paymentId: string; rail: string }): Promise<CountedBudget[]> {
  const { rows } = await sql<CountedRow>(
    `with prev as (select id, state, amount_micros from budget_holds where id = $1 and state <> 'confirmed' for update),
     h as (
       update budget_holds x set state = 'confirmed', charged_micros = $2::bigint, payment_id = $3, rail = $4, settled_at = now()
         from prev where x.id = prev.id
       returning x.budget_ids, x.day, x.month, case when prev.state = 'held' then prev.amount_micros - $2::bigint else -$2::bigint end as delta
     ),${GIVE_BACK}
     select * from upd`,
    [holdId, c.chargedMicros.toString(), c.paymentId, c.rail],
    "budget_confirm",
  );
  return rows.map(counted);
}

/** Nothing was charged: each hold still held is released and its amount given back to its windows. */
export async function releaseBudgetHolds(holdIds: string[]): Promise<number> {
  if (holdIds.length === 0) return 0;
  const { rows } = await sql<{ n: string }>(
    `with h as (
       update budget_holds set state = 'freed', settled_at = now() where id = any($1::text[]) and state = 'held'
       returning budget_ids, day, month, amount_micros as delta
     ),${GIVE_BACK}
     select (select count(*) from h)::text as n`,
    [holdIds],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Holds still held past their lease: their instance stopped before it confirmed or released them. */
export async function findLapsedBudgetHolds(now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(`select id from budget_holds where state = 'held' and lease_until < $1 order by lease_until limit $2`, [
    now,
    limit,
  ]);
  return rows.map((r) => r.id);
}

/**
 * The seller's `budget.exceeded` event (docs/events.md) for a refused call, with the agent block of entitlements, once
 * per budget and `notice` (its limit and window): the guarded update of the budget row claims it, so concurrent
 * refusals on any instance send one. emit_event fans it out to the seller's webhook endpoints in the same statement.
 */
export async function emitBudgetExceeded(e: { sellerId: string; credentialId: string; budgetId: string; notice: string; object: Record<string, unknown> }) {
  await sql(
    `with claimed as (update budgets set exceeded_notice = $4 where id = $3 and exceeded_notice is distinct from $4 returning id)
     select emit_event($1, 'budget.exceeded', c.id, jsonb_build_object('object', $5::jsonb,
       'agent', jsonb_build_object('id', c.id, 'type', c.kind, 'claimed', c.status = 'claimed',
         'human', case when h.id is null then null else jsonb_build_object('id', h.id, 'email', h.email) end)))
     from claimed, agent_credentials c left join humans h on h.id = c.human_id
     where c.id = $2 and c.seller_id = $1`,
    [e.sellerId, e.credentialId, e.budgetId, e.notice, JSON.stringify(e.object)],
  );
}
