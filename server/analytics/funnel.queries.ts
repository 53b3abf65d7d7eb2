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
 * Stateless challenges (docs/challenges.md) per UTC day of [$from, $to] (date parameters) and operation: the 402s
 * counted (challenge_counts) and the rows born from their signed ids (created that day; their ids carry a '.'). A row
 * is a challenge issued even if a crash lost its count: issued = greatest(counted, rows), never paid = the rest.
 */
const signedChallengesSql = (from: string, to: string) =>
  `select day, operation_key, sum(c) as counted, sum(b) as born from (
     select created_at::date as day, operation_key, 0 as c, 1 as b from payments
     where seller_id = $1 and from_challenge and strpos(id, '.') > 0 and created_at >= ${from}::date and created_at < ${to}::date + 1
     union all
     select day, operation_key, count, 0 from challenge_counts where seller_id = $1 and day >= ${from}::date and day <= ${to}::date
   ) y group by day, operation_key`;

/**
 * Unpaid challenges without a row, per operation, issued on the UTC days [fromDay, toDay] after the rolled-up day: the
 * ones the reconciler deleted, and the stateless ones nothing acted on (a rolled-up day's are in payment_daily:
 * counting these too would count them twice).
 */
export async function sumExpiredChallenges(
  sellerId: string,
  days: [string, string],
  through: string | null,
): Promise<{ operationKey: string; count: number }[]> {
  const from = through && through >= days[0] ? dayOf(new Date(dayStart(through).getTime() + DAY_MS)) : days[0];
  if (from > days[1]) return [];
  // Plus the stateless challenges of those days that nothing acted on: they never had a row.
  const { rows } = await sql<{ operation_key: string; count: number }>(
    `select operation_key, sum(n)::int as count from (
       select operation_key, count as n from expired_challenge_counts where seller_id = $1 and day >= $2::date and day <= $3::date
       union all
       select operation_key, greatest(0, counted - born) from (${signedChallengesSql("$2", "$3")}) s
     ) x group by 1 having sum(n) > 0`,
    [sellerId, from, days[1]],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, count: r.count }));
}

/**
 * 402 challenges issued on whole UTC days, per operation: rolled-up days from payment_daily (payments created as
 * challenges, the deleted and the stateless unpaid ones folded in); later days: the challenge rows a 402 wrote before
 * stateless challenges, the unpaid ones the reconciler deleted (expired_challenge_counts), and the stateless ones
 * (challenge_counts, or the rows born from their ids where a crash lost counts). One statement.
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
       where seller_id = $1 and from_challenge and strpos(id, '.') = 0
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  const expiredFrom = through && through >= days[0] ? dayOf(new Date(dayStart(through).getTime() + DAY_MS)) : days[0];
  if (expiredFrom <= days[1]) {
    params.push(expiredFrom, days[1]);
    parts.push(
      `select operation_key, count as n from expired_challenge_counts
       where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
      `select operation_key, greatest(counted, born) as n from (${signedChallengesSql(`$${params.length - 1}`, `$${params.length}`)}) s`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ operation_key: string; count: number }>(
    `select operation_key, sum(n)::int as count from (${parts.join(" union all ")}) x group by 1`,
    params,
  );
  return rows.map((r) => ({ operationKey: r.operation_key, count: r.count }));
}

/** Calls held for their person's approval at this seller that wait for an answer now (pending, not yet expired). */
export async function countPendingApprovals(sellerId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(
    `select count(*)::int as n from approvals where seller_id = $1 and status = 'pending' and expires_at > (now() at time zone 'UTC')`,
    [sellerId],
  );
  return rows[0]?.n ?? 0;
}
