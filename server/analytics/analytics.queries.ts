// The console's aggregates, as SQL: a range is read as the closed days its seller's rollup has reached (the *_daily
// tables, a few rows per day) plus the live tables for the days after (today, usually), each answered from a covering
// index ((seller_id, created_at desc) INCLUDE ...), never rows loaded into memory. `through` is the seller's rolled-up
// day (inclusive; null: nothing rolled up). The only write here is the refusal fact (the refusal path). Timestamps
// are `timestamp(3)` holding UTC wall time (as Prisma writes them): parameters are converted explicitly.
import { sql } from "../db/client";
import { stateSql, statesSql, UNCHARGED_STATES } from "../payments/payment-state";

const utc = (d: Date) => d.toISOString();
export type Span = { start: Date; end: Date };

const DAY_MS = 86_400_000;
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Where a span splits: whole days up to the rolled-up day come from the rollup, the rest from the live tables. A span
 * starts at midnight; its end may be a time of day (a previous period cut at the same time), which is live.
 */
export function splitSpan(span: Span, through: string | null): { days: [string, string] | null; live: Span | null } {
  const fullEnd = new Date(Math.floor(span.end.getTime() / DAY_MS) * DAY_MS);
  const rolledEnd = through ? new Date(dayStart(through).getTime() + DAY_MS) : span.start;
  const daysEnd = new Date(Math.max(span.start.getTime(), Math.min(fullEnd.getTime(), rolledEnd.getTime())));
  const days: [string, string] | null = daysEnd > span.start ? [dayOf(span.start), dayOf(new Date(daysEnd.getTime() - DAY_MS))] : null;
  const live = span.end > daysEnd ? { start: daysEnd, end: span.end } : null;
  return { days, live };
}

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

export type LedgerGroup = {
  /** "bucket": per time bucket and kind; "operation": per operation, rail and kind. */
  grp: "bucket" | "operation";
  bucket: string | null;
  operationKey: string | null;
  rail: string | null;
  kind: string;
  entries: number;
  micros: bigint;
  /** Charges only: summed gas (wei) over the entries whose gas is known, how many those are, and summed provider fees. */
  gasWei: bigint;
  gasKnown: number;
  feeMicros: bigint;
  feeKnown: number;
};

type LedgerGroupRow = {
  by_bucket: boolean;
  bucket: string | null;
  operation_key: string | null;
  rail: string | null;
  kind: string;
  entries: number;
  micros: string;
  gas_wei: string;
  gas_known: number;
  fee_micros: string;
  fee_known: number;
};

/**
 * A seller's ledger over a span, grouped two ways at once (GROUPING SETS): per chart bucket (hour or day) and kind, and
 * per operation, rail and kind with what settling cost. Rolled-up days and live rows are one union, grouped once.
 * Hour buckets (a one-day range) are read live. Serves the overview's charts and figures and the margin page.
 */
export async function groupLedger(sellerId: string, span: Span, bucket: "hour" | "day", through: string | null): Promise<LedgerGroup[]> {
  const { days, live } = bucket === "hour" ? { days: null, live: span } : splitSpan(span, through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (days) {
    params.push(days[0], days[1]);
    parts.push(
      `select to_char(day, 'YYYY-MM-DD') as b, nullif(operation_key, '') as operation_key, nullif(rail, '') as rail, kind, entries as n, amount_micros,
         gas_cost_wei, gas_known, fee_micros, fee_known
       from ledger_daily where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    const fmt = bucket === "hour" ? `'YYYY-MM-DD"T"HH24'` : `'YYYY-MM-DD'`;
    parts.push(
      `select to_char(date_trunc('${bucket}', created_at), ${fmt}) as b, operation_key, rail, kind, 1 as n, amount_micros,
         coalesce(gas_cost_wei, 0) as gas_cost_wei, (gas_cost_wei is not null)::int as gas_known, coalesce(fee_micros, 0) as fee_micros,
         (fee_micros is not null)::int as fee_known
       from ledger_entries
       where seller_id = $1 and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<LedgerGroupRow>(
    `select grouping(b) = 0 as by_bucket, b as bucket, operation_key, rail, kind, sum(n)::int as entries, coalesce(sum(amount_micros), 0)::text as micros,
       coalesce(sum(gas_cost_wei), 0)::text as gas_wei, sum(gas_known)::int as gas_known, coalesce(sum(fee_micros), 0)::text as fee_micros,
       sum(fee_known)::int as fee_known
     from (${parts.join(" union all ")}) l
     group by grouping sets ((b, kind), (operation_key, rail, kind))`,
    params,
  );
  return rows.map((r) => ({
    grp: r.by_bucket ? "bucket" : "operation",
    bucket: r.bucket,
    operationKey: r.operation_key,
    rail: r.rail,
    kind: r.kind,
    entries: r.entries,
    micros: BigInt(r.micros),
    gasWei: BigInt(r.gas_wei),
    gasKnown: r.gas_known,
    feeMicros: BigInt(r.fee_micros),
    feeKnown: r.fee_known,
  }));
}

/** `draws`: calls served on prepaid credit (usage, not revenue: the money came in with the plan purchase). */
export type LedgerTotals = { chargedMicros: bigint; refundedMicros: bigint; charges: number; refunds: number; draws: number; drawnMicros: bigint };

/** Charges and refunds of several spans (the revenue figures and their previous periods), in one statement. */
export async function sumLedgerSpans(sellerId: string, spans: Span[], through: string | null): Promise<LedgerTotals[]> {
  if (spans.length === 0) return [];
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  spans.forEach((span, i) => {
    const { days, live } = splitSpan(span, through);
    if (days) {
      params.push(days[0], days[1]);
      parts.push(
        `select ${i} as i, kind, entries as n, amount_micros from ledger_daily
         where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
      );
    }
    if (live) {
      params.push(utc(live.start), utc(live.end));
      parts.push(
        `select ${i} as i, kind, 1 as n, amount_micros from ledger_entries
         where seller_id = $1 and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
      );
    }
  });
  const { rows } = await sql<{ i: number; kind: string; n: number; micros: string }>(
    `select i, kind, sum(n)::int as n, coalesce(sum(amount_micros), 0)::text as micros from (${parts.join(" union all ")}) x group by i, kind`,
    params,
  );
  return spans.map((_, i) => {
    const of = (kind: string) => rows.find((r) => r.i === i && r.kind === kind);
    return {
      chargedMicros: BigInt(of("charge")?.micros ?? "0"),
      refundedMicros: BigInt(of("refund")?.micros ?? "0"),
      charges: of("charge")?.n ?? 0,
      refunds: of("refund")?.n ?? 0,
      draws: of("draw")?.n ?? 0,
      drawnMicros: BigInt(of("draw")?.micros ?? "0"),
    };
  });
}

/**
 * Unique payers over a span, per payer kind (the rails registry says which rails record which kind): who was charged,
 * and the credentials that drew on prepaid credit.
 */
export async function countPayers(
  sellerId: string,
  span: Span,
  through: string | null,
  railKinds: { rail: string; kind: string }[],
): Promise<{ kind: string; payers: number }[]> {
  const { days, live } = splitSpan(span, through);
  const params: unknown[] = [sellerId, railKinds.map((r) => r.rail), railKinds.map((r) => r.kind)];
  const parts: string[] = [];
  if (days) {
    // A payer paid on a rolled-up day of the range when its bit string has a 1 within the range.
    params.push(days[0], days[1]);
    const a = `$${params.length - 1}::date`;
    const b = `$${params.length}::date`;
    parts.push(
      `select nullif(rail, '') as rail, payer from payer_activity
       where seller_id = $1 and first_day <= ${b}
         and position(B'1' in substring(days from greatest(${a} - first_day, 0) + 1 for ${b} - greatest(${a}, first_day) + 1)) > 0`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select rail, payer from ledger_entries where seller_id = $1 and kind in ('charge', 'draw') and payer is not null
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  // distinct, then count (a hash aggregate): count(distinct ...) sorts every row and spills to disk at this size.
  const { rows } = await sql<{ kind: string; payers: number }>(
    `select kind, count(*)::int as payers from (
       select distinct k.kind, x.payer from (${parts.join(" union all ")}) x join unnest($2::text[], $3::text[]) as k(rail, kind) on k.rail = x.rail
     ) d group by kind`,
    params,
  );
  return rows;
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
  const { days: rolled, live } = splitSpan({ start: dayStart(days[0]), end: new Date(dayStart(days[1]).getTime() + DAY_MS) }, through);
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
export async function countSettling(sellerId: string, span: Span): Promise<{ operationKey: string; rail: string | null; count: number }[]> {
  const { rows } = await sql<{ operation_key: string; rail: string | null; count: number }>(
    `select p.operation_key, p.rail, count(*)::int as count
     from settlements s join payments p on p.id = s.payment_id
     where s.status = 'pending' and p.seller_id = $1 and p.status = ${stateSql("verified")}
       and p.created_at >= $2::timestamptz at time zone 'UTC' and p.created_at < $3::timestamptz at time zone 'UTC'
     group by 1, 2`,
    [sellerId, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, rail: r.rail, count: r.count }));
}

/** Refused proofs over whole UTC days, per operation, rail, code and reason. */
export async function groupRefusals(
  sellerId: string,
  days: [string, string],
  through: string | null,
): Promise<{ operationKey: string; rail: string | null; code: string; reason: string | null; count: number }[]> {
  const { days: rolled, live } = splitSpan({ start: dayStart(days[0]), end: new Date(dayStart(days[1]).getTime() + DAY_MS) }, through);
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

export type PayerRow = {
  payer: string;
  rails: string[];
  calls: number;
  refunds: number;
  chargedMicros: bigint;
  refundedMicros: bigint;
  firstAt: string;
  lastAt: string | null;
};

/**
 * Paying wallets (and other payers) over a span, by net spend, one page: payer_daily for rolled-up days and the
 * ledger's covering index after them, grouped once. `total` is how many payers there are in all.
 */
export async function groupPayers(
  sellerId: string,
  span: Span,
  through: string | null,
  page: { limit: number; offset: number },
): Promise<{ rows: PayerRow[]; total: number }> {
  const { days, live } = splitSpan(span, through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (days) {
    params.push(days[0], days[1]);
    parts.push(
      `select payer, nullif(rail, '') as rail, charges, refunds, charged_micros, refunded_micros, first_at, last_charge_at
       from payer_daily where seller_id = $1 and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select payer, rail, (kind = 'charge')::int, (kind = 'refund')::int, case when kind = 'charge' then amount_micros else 0 end,
         case when kind = 'refund' then amount_micros else 0 end, created_at, case when kind = 'charge' then created_at end
       from ledger_entries where seller_id = $1 and payer is not null and kind in ('charge', 'refund')
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return { rows: [], total: 0 };
  params.push(page.limit, page.offset);
  const { rows } = await sql<{
    payer: string;
    rails: string[] | null;
    calls: number;
    refunds: number;
    charged: string;
    refunded: string;
    first_at: string;
    last_at: string | null;
    total: number;
  }>(
    `select payer, array_agg(distinct rail) filter (where rail is not null) as rails, sum(charges)::int as calls, sum(refunds)::int as refunds,
       sum(charged_micros)::text as charged, sum(refunded_micros)::text as refunded,
       to_char(min(first_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_at, to_char(max(last_charge_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at,
       count(*) over ()::int as total
     from (${parts.join(" union all ")}) as x(payer, rail, charges, refunds, charged_micros, refunded_micros, first_at, last_charge_at)
     group by payer
     order by sum(charged_micros) - sum(refunded_micros) desc, payer
     limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return {
    total: rows[0]?.total ?? 0,
    rows: rows.map((r) => ({
      payer: r.payer,
      rails: r.rails ?? [],
      calls: r.calls,
      refunds: r.refunds,
      chargedMicros: BigInt(r.charged),
      refundedMicros: BigInt(r.refunded),
      firstAt: r.first_at,
      lastAt: r.last_at,
    })),
  };
}

/**
 * Served calls per day and operation over whole UTC days: ledger charges and draws on prepaid credit (a refund does
 * not undo that a call was served). Rolled-up days from ledger_daily, later days live, as everywhere else.
 */
export async function countCallsPerDayAndOperation(
  sellerId: string,
  span: Span,
  through: string | null,
): Promise<{ day: string; operationKey: string; calls: number }[]> {
  const { days, live } = splitSpan(span, through);
  const params: unknown[] = [sellerId];
  const parts: string[] = [];
  if (days) {
    params.push(days[0], days[1]);
    parts.push(
      `select to_char(day, 'YYYY-MM-DD') as d, operation_key, entries as n from ledger_daily
       where seller_id = $1 and kind in ('charge', 'draw') and day >= $${params.length - 1}::date and day <= $${params.length}::date`,
    );
  }
  if (live) {
    params.push(utc(live.start), utc(live.end));
    parts.push(
      `select to_char(created_at, 'YYYY-MM-DD') as d, coalesce(operation_key, '') as operation_key, 1 as n from ledger_entries
       where seller_id = $1 and kind in ('charge', 'draw')
         and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    );
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ d: string; operation_key: string; n: number }>(
    `select d, operation_key, sum(n)::int as n from (${parts.join(" union all ")}) x group by d, operation_key order by d`,
    params,
  );
  return rows.map((r) => ({ day: r.d, operationKey: r.operation_key, calls: r.n }));
}
