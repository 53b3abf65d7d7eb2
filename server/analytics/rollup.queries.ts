// The closed-day rollups (ledger_daily, payer_daily, payer_activity, payment_daily, refusal_daily) and each seller's watermark
// (analytics_rollups.rolled_through). One day of one seller is rolled in one REPEATABLE READ transaction, so the
// four tables see the same snapshot, and guarded by the watermark it advances (FOR UPDATE), so two instances never
// roll the same day twice.
import { db, sql, type Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { stateSql, statesSql, UNCHARGED_STATES } from "../payments/payment-state";

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

/** Sellers whose rollup is behind `lastDay` (or never started), oldest watermark first. */
export async function findSellersBehind(lastDay: string, limit: number): Promise<{ sellerId: string; rolledThrough: string | null }[]> {
  const { rows } = await sql<{ seller_id: string; rolled_through: string | null }>(
    `select s.id as seller_id, to_char(r.rolled_through, 'YYYY-MM-DD') as rolled_through
     from sellers s left join analytics_rollups r on r.seller_id = s.id
     where r.rolled_through is null or r.rolled_through < $1::date
     order by r.rolled_through nulls first, s.id limit $2`,
    [lastDay, limit],
  );
  return rows.map((r) => ({ sellerId: r.seller_id, rolledThrough: r.rolled_through }));
}

/** A seller's first day with anything to roll up (first row of each table's (seller_id, created_at) index), or null. */
export async function findFirstActivityDay(sellerId: string): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>(
    `select to_char(least(
       (select min(created_at) from payments where seller_id = $1),
       (select min(created_at) from ledger_entries where seller_id = $1),
       (select min(created_at) from payment_refusals where seller_id = $1),
       (select min(day)::timestamp from expired_challenge_counts where seller_id = $1),
       (select min(day)::timestamp from challenge_counts where seller_id = $1)
     ), 'YYYY-MM-DD') as day`,
    [sellerId],
  );
  return rows[0]?.day ?? null;
}

/**
 * The next day after `afterDay` with anything to roll up, or null: empty days between hold no rows, so the watermark
 * can jump over them (a seller quiet for a year is not rolled day by day).
 */
export async function findNextActivityDay(sellerId: string, afterDay: string): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>(
    `select to_char(least(
       (select min(created_at) from payments where seller_id = $1 and created_at >= $2::timestamp),
       (select min(created_at) from ledger_entries where seller_id = $1 and created_at >= $2::timestamp),
       (select min(created_at) from payment_refusals where seller_id = $1 and created_at >= $2::timestamp),
       (select min(day)::timestamp from expired_challenge_counts where seller_id = $1 and day >= $2::date),
       (select min(day)::timestamp from challenge_counts where seller_id = $1 and day >= $2::date)
     ), 'YYYY-MM-DD') as day`,
    [sellerId, nextDay(afterDay)],
  );
  return rows[0]?.day ?? null;
}

/** Move a seller's watermark from `from` to `to` over days with no rows (guarded: false if it moved meanwhile). */
export async function skipEmptyDays(sellerId: string, from: string, to: string): Promise<boolean> {
  const { rowCount } = await sql(
    `update analytics_rollups set rolled_through = $3::date, updated_at = now() at time zone 'UTC' where seller_id = $1 and rolled_through = $2::date`,
    [sellerId, from, to],
  );
  return rowCount === 1;
}

/**
 * Forget a seller's rollups (a seed or an import that wrote rows into closed days): reads fall back to the live
 * tables, and the next passes roll the days again.
 */
export async function resetRollups(sellerId: string): Promise<void> {
  await db.$transaction([
    db.analyticsRollup.deleteMany({ where: { sellerId } }),
    db.ledgerDaily.deleteMany({ where: { sellerId } }),
    db.payerDaily.deleteMany({ where: { sellerId } }),
    db.payerActivity.deleteMany({ where: { sellerId } }),
    db.paymentDaily.deleteMany({ where: { sellerId } }),
    db.refusalDaily.deleteMany({ where: { sellerId } }),
  ]);
}

/** Whether a payment created on `day` can still change its funnel step: verified (being served or settling). */
export async function hasPaymentsInFlight(sellerId: string, day: string): Promise<boolean> {
  const { rows } = await sql(
    `select 1 from payments where seller_id = $1 and created_at >= $2::timestamp and created_at < $3::timestamp and status = ${stateSql("verified")} limit 1`,
    [sellerId, day, nextDay(day)],
  );
  return rows.length > 0;
}

/** Start a seller's watermark (the day before its first activity) if it has none. */
export async function startWatermark(sellerId: string, through: string): Promise<void> {
  await sql(
    `insert into analytics_rollups (seller_id, rolled_through, updated_at) values ($1, $2::date, now() at time zone 'UTC') on conflict (seller_id) do nothing`,
    [sellerId, through],
  );
}

/**
 * Roll up `day` for a seller whose watermark is the day before it: the day's ledger, payers, payments (plus the day's
 * challenges without a row, as `challenged`: the ones the reconciler deleted, and the stateless ones nothing acted on)
 * and refusals, then the watermark moves to `day`. False
 * if another instance moved the watermark first (nothing written).
 */
export async function rollUpDay(sellerId: string, day: string): Promise<boolean> {
  try {
    return await rollUpDayOnce(sellerId, day);
  } catch (e) {
    // Another instance moved the watermark between our snapshot and our lock: it rolled the day, we write nothing.
    if (JSON.stringify((e as { meta?: unknown }).meta ?? {}).includes("40001")) return false;
    throw e;
  }
}

async function rollUpDayOnce(sellerId: string, day: string): Promise<boolean> {
  const from = day;
  const to = nextDay(day);
  return db.$transaction(
    async (tx: Tx) => {
      const [w] = await tx.$queryRaw<{ through: string }[]>`
        select to_char(rolled_through, 'YYYY-MM-DD') as through from analytics_rollups where seller_id = ${sellerId} for update`;
      if (!w || nextDay(w.through) !== day) return false;
      await tx.$executeRaw`
        insert into ledger_daily (seller_id, day, operation_key, rail, kind, entries, amount_micros, gas_cost_wei, gas_known, fee_micros, fee_known)
        select seller_id, ${from}::date, coalesce(operation_key, ''), coalesce(rail, ''), kind, count(*), sum(amount_micros), coalesce(sum(gas_cost_wei), 0),
          count(gas_cost_wei), coalesce(sum(fee_micros), 0), count(fee_micros)
        from ledger_entries where seller_id = ${sellerId} and created_at >= ${from}::timestamp and created_at < ${to}::timestamp
        group by seller_id, 3, 4, kind`;
      await tx.$executeRaw`
        insert into payer_daily (seller_id, day, rail, payer, charges, refunds, charged_micros, refunded_micros, first_at, last_charge_at)
        select seller_id, ${from}::date, coalesce(rail, ''), payer, count(*) filter (where kind = 'charge'), count(*) filter (where kind = 'refund'),
          coalesce(sum(amount_micros) filter (where kind = 'charge'), 0), coalesce(sum(amount_micros) filter (where kind = 'refund'), 0),
          min(created_at), max(created_at) filter (where kind = 'charge')
        from ledger_entries where seller_id = ${sellerId} and payer is not null and kind in ('charge', 'refund')
          and created_at >= ${from}::timestamp and created_at < ${to}::timestamp
        group by seller_id, 3, payer`;
      // Mark the day in each paying payer's bit string (extended with zeros up to it when needed): charged, or drew
      // on prepaid credit.
      await tx.$executeRaw`
        insert into payer_activity (seller_id, rail, payer, first_day, days)
        select seller_id, coalesce(rail, ''), payer, ${from}::date, B'1'
        from ledger_entries where seller_id = ${sellerId} and kind in ('charge', 'draw') and payer is not null
          and created_at >= ${from}::timestamp and created_at < ${to}::timestamp
        group by seller_id, 2, payer
        on conflict (seller_id, rail, payer) do update set days = set_bit(
          payer_activity.days || repeat('0', greatest(0, (${from}::date - payer_activity.first_day) + 1 - length(payer_activity.days)))::varbit,
          ${from}::date - payer_activity.first_day, 1)`;
      await tx.$executeRaw`
        insert into payment_daily (seller_id, day, operation_key, rail, status, from_challenge, reason, count)
        select ${sellerId}, ${from}::date, operation_key, rail, status, from_challenge, reason, sum(n)
        from (
          select operation_key, coalesce(rail, '') as rail, status::text as status, from_challenge,
            coalesce(case when status in ${Prisma.raw(statesSql(UNCHARGED_STATES))} then failure_reason end, '') as reason, count(*) as n
          from payments where seller_id = ${sellerId} and created_at >= ${from}::timestamp and created_at < ${to}::timestamp
          group by 1, 2, 3, 4, 5
          union all
          select operation_key, '', ${Prisma.raw(stateSql("challenged"))}, true, '', count from expired_challenge_counts where seller_id = ${sellerId} and day = ${from}::date
          union all
          -- Stateless challenges nothing acted on (no row): the day's counted 402s less the rows born from their ids.
          select c.operation_key, '', ${Prisma.raw(stateSql("challenged"))}, true, '', greatest(0, c.count - (
            select count(*) from payments b where b.seller_id = ${sellerId} and b.operation_key = c.operation_key and b.from_challenge and strpos(b.id, '.') > 0
              and b.created_at >= ${from}::timestamp and b.created_at < ${to}::timestamp))
          from challenge_counts c where c.seller_id = ${sellerId} and c.day = ${from}::date
        ) x
        where n > 0
        group by operation_key, rail, status, from_challenge, reason`;
      await tx.$executeRaw`
        insert into refusal_daily (seller_id, day, operation_key, rail, code, reason, count)
        select seller_id, ${from}::date, operation_key, coalesce(rail, ''), code, coalesce(reason, ''), count(*)
        from payment_refusals where seller_id = ${sellerId} and created_at >= ${from}::timestamp and created_at < ${to}::timestamp
        group by seller_id, 3, 4, 5, 6`;
      await tx.$executeRaw`update analytics_rollups set rolled_through = ${from}::date, updated_at = now() at time zone 'UTC' where seller_id = ${sellerId}`;
      return true;
    },
    { isolationLevel: "RepeatableRead", timeout: 60_000 },
  );
}

/** The day a seller's rollup has reached (inclusive), or null: every read of a range splits there. */
export async function findRolledThrough(sellerId: string): Promise<string | null> {
  const { rows } = await sql<{ through: string }>(`select to_char(rolled_through, 'YYYY-MM-DD') as through from analytics_rollups where seller_id = $1`, [
    sellerId,
  ]);
  return rows[0]?.through ?? null;
}
