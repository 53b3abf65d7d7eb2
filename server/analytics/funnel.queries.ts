// The 402 funnel's facts, as SQL: payments per operation, rail, state and origin, refused proofs, the unpaid challenges
// the reconciler deleted, and the refusal fact itself (the only write of the console's analytics, on the refusal path).
// Rolled-up days from the *_daily tables, later days live, as in analytics.queries.ts.
import { sql } from "../db/client";
import { stateSql, statesSql, UNCHARGED_STATES } from "../payments/payment-state";
import { DAY_MS, dayOf, dayStart, daysSpan, splitSpan, utc, type Span } from "./span";

export async function insertPaymentRefusal(r: {
  sellerId: string;
  rail: string | null;
  operationKey: string;
  code: string;
  reason: string | null;
}): Promise<void> {
  await sql(`insert into payment_refusals (seller_id, rail, operation_key, code, reason, created_at) values ($1, $2, $3, $4, $5, now() at time zone 'UTC')`, [
    r.sellerId,
    r.rail,
    r.operationKey,
    r.code,
    r.reason?.slice(0, 200) ?? null,
  ]);
}

export type PaymentGroup = {
  operationKey: string;
  rail: string | null;
  status: string;
  fromChallenge: boolean;
  /** Released or failed: why (the payment's failure_reason); null for other states. */
  reason: string | null;
  count: number;
};

/**
 * The funnel's payment side over whole UTC days: payments created on them, counted per operation, rail, state, origin
 * and (for released and failed ones) reason. Rolled-up days come from payment_daily (their deleted challenges folded
 * in); later days from payments (an index-only scan of the covering index).
 */
export async function groupPayments(sellerId: string, days: [string, string], through: string | null): Promise<PaymentGroup[]> {
  const { days: rolled, live } = splitSpan(daysSpan(days), through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (rolled) {
    params.push(rolled[0], rolled[1]);
    parts.push(
      `select operation_key, nullif(rail, '') as rail, status, from_challenge, nullif(reason, '') as reason, count as n
       from payment_daily where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select operation_key, rail, status::text as status, from_challenge, case when status in ${statesSql(UNCHARGED_STATES)} then failure_reason end as reason, 1 as n
       from payments
       where seller_id = $1 and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ operation_key: string; rail: string | null; status: string; from_challenge: boolean; reason: string | null; count: number }>(
    `select operation_key, rail, status, from_challenge, reason, sum(n)::int as count from (${parts.join(" union all ")}) x group by 1, 2, 3, 4, 5`,
    params,
  );
  return rows.map((r) => ({
    operationKey: r.operation_key,
    rail: r.rail,
    status: r.status,
    fromChallenge: r.from_challenge,
    reason: r.reason,
    count: r.count,
  }));
}

/**
 * Verified payments of a span whose charge is decided but not yet recorded (a pending outbox row): served, settling.
 * Read from the outbox side (pending rows are few, found by settlements (status, next_attempt_at)). Never on a
 * rolled-up day: a day with a verified payment is not rolled up.
 */
export async function countSettling(
  sellerId: string,
  span: Span,
): Promise<{ operationKey: string; rail: string | null; fromChallenge: boolean; count: number }[]> {
  const { rows } = await sql<{ operation_key: string; rail: string | null; from_challenge: boolean; count: number }>(
    `select p.operation_key, p.rail, p.from_challenge, count(*)::int as count
     from settlements s join payments p on p.id = s.payment_id
     where s.status = 'pending' and p.seller_id = $1 and p.status = ${stateSql("verified")}
       and p.created_at >= $2::timestamptz at time zone 'UTC' and p.created_at < $3::timestamptz at time zone 'UTC'
     group by 1, 2, 3`,
    [sellerId, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, rail: r.rail, fromChallenge: r.from_challenge, count: r.count }));
}

/** Refused proofs over whole UTC days, per operation, rail, code and reason. */
export async function groupRefusals(
  sellerId: string,
  days: [string, string],
  through: string | null,
): Promise<{ operationKey: string; rail: string | null; code: string; reason: string | null; count: number }[]> {
  const { days: rolled, live } = splitSpan(daysSpan(days), through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (rolled) {
    params.push(rolled[0], rolled[1]);
    parts.push(
      `select operation_key, nullif(rail, '') as rail, code, nullif(reason, '') as reason, count as n
       from refusal_daily where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select operation_key, rail, code, reason, 1 as n from payment_refusals
       where seller_id = $1 and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ operation_key: string; rail: string | null; code: string; reason: string | null; count: number }>(
    `select operation_key, rail, code, reason, sum(n)::int as count from (${parts.join(" union all ")}) x group by 1, 2, 3, 4`,
    params,
  );
  return rows.map((r) => ({ operationKey: r.operation_key, rail: r.rail, code: r.code, reason: r.reason, count: r.count }));
}

/**
 * Unpaid challenges the reconciler deleted, per operation, issued on the UTC days [fromDay, toDay] after the rolled-up
 * day (a rolled-up day's deleted challenges are in payment_daily: counting these too would count them twice).
 */
export async function sumExpiredChallenges(
  sellerId: string,
  days: [string, string],
  through: string | null,
): Promise<{ operationKey: string; count: number }[]> {
  const from = through && through >= days[0] ? dayOf(new Date(dayStart(through).getTime() + DAY_MS)) : days[0];
  if (from > days[1]) return [];
  const { rows } = await sql<{ operation_key: string; count: number }>(
    `select operation_key, sum(count)::int as count from expired_challenge_counts
     where seller_id = $1 and day >= $2::date and day <= $3::date group by 1`,
    [sellerId, from, days[1]],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, count: r.count }));
}

/**
 * 402 challenges issued on whole UTC days, per operation: payments created as challenges (rolled-up days from
 * payment_daily, their deleted challenges folded in; later days live) plus the unpaid ones the reconciler deleted
 * after the rolled-up day (expired_challenge_counts). One statement.
 */
export async function countIssuedChallenges(
  sellerId: string,
  days: [string, string],
  through: string | null,
): Promise<{ operationKey: string; count: number }[]> {
  const { days: rolled, live } = splitSpan(daysSpan(days), through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (rolled) {
    params.push(rolled[0], rolled[1]);
    parts.push(
      `select operation_key, count as n from payment_daily
       where seller_id = $1 and from_challenge and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select operation_key, 1 as n from payments
       where seller_id = $1 and from_challenge
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  const expiredFrom = through && through >= days[0] ? dayOf(new Date(dayStart(through).getTime() + DAY_MS)) : days[0];
  if (expiredFrom <= days[1]) {
    params.push(expiredFrom, days[1]);
    parts.push(
      `select operation_key, count as n from expired_challenge_counts
       where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ operation_key: string; count: number }>(
    `select operation_key, sum(n)::int as count from (${parts.join(" union all ")}) x group by 1`,
    params,
  );
  return rows.map((r) => ({ operationKey: r.operation_key, count: r.count }));
}
