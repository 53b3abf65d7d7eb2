// The console's aggregates, as SQL over indexes: every figure is one grouped scan of a date range of one seller's
// rows, answered from a covering index (ledger_entries and payments (seller_id, created_at desc) INCLUDE ...), never
// rows loaded into memory. The only write is the refusal fact (the refusal path). Timestamps are `timestamp(3)` holding
// UTC wall time (as Prisma writes them): parameters are converted explicitly.
import { sql } from "../db/client";

const utc = (d: Date) => d.toISOString();
export type Span = { start: Date; end: Date };

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

/**
 * One scan of a seller's ledger over a span, grouped two ways at once (GROUPING SETS): per chart bucket (hour or day)
 * and kind, and per operation, rail and kind with what settling cost. Serves the overview's charts and figures and the
 * margin page.
 */
export async function groupLedger(sellerId: string, span: Span, bucket: "hour" | "day"): Promise<LedgerGroup[]> {
  const fmt = bucket === "hour" ? `'YYYY-MM-DD"T"HH24'` : `'YYYY-MM-DD'`;
  const { rows } = await sql<{
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
  }>(
    `select grouping(b) = 0 as by_bucket, b as bucket, operation_key, rail, kind, count(*)::int as entries, coalesce(sum(amount_micros), 0)::text as micros,
       coalesce(sum(gas_cost_wei), 0)::text as gas_wei, count(gas_cost_wei)::int as gas_known,
       coalesce(sum(fee_micros), 0)::text as fee_micros, count(fee_micros)::int as fee_known
     from (
       select to_char(date_trunc('${bucket}', created_at), ${fmt}) as b, operation_key, rail, kind, amount_micros, gas_cost_wei, fee_micros
       from ledger_entries
       where seller_id = $1 and created_at >= $2::timestamptz at time zone 'UTC' and created_at < $3::timestamptz at time zone 'UTC'
     ) l
     group by grouping sets ((b, kind), (operation_key, rail, kind))`,
    [sellerId, utc(span.start), utc(span.end)],
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

export type LedgerTotals = { chargedMicros: bigint; refundedMicros: bigint; charges: number; refunds: number };

/** Charges and refunds of several spans in one scan (the revenue figures and their previous periods). */
export async function sumLedgerSpans(sellerId: string, spans: Span[]): Promise<LedgerTotals[]> {
  if (spans.length === 0) return [];
  const params: unknown[] = [sellerId];
  const cols: string[] = [];
  let lo = spans[0]!.start;
  let hi = spans[0]!.end;
  spans.forEach((s, i) => {
    params.push(utc(s.start), utc(s.end));
    const a = `$${params.length - 1}::timestamptz at time zone 'UTC'`;
    const b = `$${params.length}::timestamptz at time zone 'UTC'`;
    const inSpan = `created_at >= ${a} and created_at < ${b}`;
    cols.push(
      `coalesce(sum(amount_micros) filter (where kind = 'charge' and ${inSpan}), 0)::text as c${i}`,
      `coalesce(sum(amount_micros) filter (where kind = 'refund' and ${inSpan}), 0)::text as r${i}`,
      `count(*) filter (where kind = 'charge' and ${inSpan})::int as nc${i}`,
      `count(*) filter (where kind = 'refund' and ${inSpan})::int as nr${i}`,
    );
    if (s.start < lo) lo = s.start;
    if (s.end > hi) hi = s.end;
  });
  params.push(utc(lo), utc(hi));
  const { rows } = await sql<Record<string, string | number>>(
    `select ${cols.join(", ")} from ledger_entries
     where seller_id = $1 and created_at >= $${params.length - 1}::timestamptz at time zone 'UTC' and created_at < $${params.length}::timestamptz at time zone 'UTC'`,
    params,
  );
  const r = rows[0]!;
  return spans.map((_, i) => ({
    chargedMicros: BigInt(r[`c${i}`] as string),
    refundedMicros: BigInt(r[`r${i}`] as string),
    charges: Number(r[`nc${i}`]),
    refunds: Number(r[`nr${i}`]),
  }));
}

/** Unique payers of charges over a span, per payer kind (the rails registry says which rails record which kind). */
export async function countPayers(sellerId: string, span: Span, railKinds: { rail: string; kind: string }[]): Promise<{ kind: string; payers: number }[]> {
  const { rows } = await sql<{ kind: string; payers: number }>(
    `select k.kind, count(distinct l.payer)::int as payers
     from ledger_entries l join unnest($4::text[], $5::text[]) as k(rail, kind) on k.rail = l.rail
     where l.seller_id = $1 and l.kind = 'charge' and l.payer is not null
       and l.created_at >= $2::timestamptz at time zone 'UTC' and l.created_at < $3::timestamptz at time zone 'UTC'
     group by k.kind`,
    [sellerId, utc(span.start), utc(span.end), railKinds.map((r) => r.rail), railKinds.map((r) => r.kind)],
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
 * The funnel's payment side: a seller's payments created in a span, counted per operation, rail, state, origin and
 * (for released and failed ones) reason. Every column read is in the covering index, so this is an index-only scan.
 */
export async function groupPayments(sellerId: string, span: Span): Promise<PaymentGroup[]> {
  const { rows } = await sql<{ operation_key: string; rail: string | null; status: string; from_challenge: boolean; reason: string | null; count: number }>(
    `select operation_key, rail, status::text as status, from_challenge, case when status in ('released', 'failed') then failure_reason end as reason,
       count(*)::int as count
     from payments
     where seller_id = $1 and created_at >= $2::timestamptz at time zone 'UTC' and created_at < $3::timestamptz at time zone 'UTC'
     group by 1, 2, 3, 4, 5`,
    [sellerId, utc(span.start), utc(span.end)],
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
 * Read from the outbox side (pending rows are few, found by settlements (status, next_attempt_at)).
 */
export async function countSettling(sellerId: string, span: Span): Promise<{ operationKey: string; rail: string | null; count: number }[]> {
  const { rows } = await sql<{ operation_key: string; rail: string | null; count: number }>(
    `select p.operation_key, p.rail, count(*)::int as count
     from settlements s join payments p on p.id = s.payment_id
     where s.status = 'pending' and p.seller_id = $1 and p.status = 'verified'
       and p.created_at >= $2::timestamptz at time zone 'UTC' and p.created_at < $3::timestamptz at time zone 'UTC'
     group by 1, 2`,
    [sellerId, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, rail: r.rail, count: r.count }));
}

/** Refused proofs over a span, per operation, rail, code and reason. */
export async function groupRefusals(
  sellerId: string,
  span: Span,
): Promise<{ operationKey: string; rail: string | null; code: string; reason: string | null; count: number }[]> {
  const { rows } = await sql<{ operation_key: string; rail: string | null; code: string; reason: string | null; count: number }>(
    `select operation_key, rail, code, reason, count(*)::int as count from payment_refusals
     where seller_id = $1 and created_at >= $2::timestamptz at time zone 'UTC' and created_at < $3::timestamptz at time zone 'UTC'
     group by 1, 2, 3, 4`,
    [sellerId, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({ operationKey: r.operation_key, rail: r.rail, code: r.code, reason: r.reason, count: r.count }));
}

/** Unpaid challenges the reconciler deleted, per operation, issued on the UTC days [fromDay, toDay]. */
export async function sumExpiredChallenges(sellerId: string, fromDay: string, toDay: string): Promise<{ operationKey: string; count: number }[]> {
  const { rows } = await sql<{ operation_key: string; count: number }>(
    `select operation_key, sum(count)::int as count from expired_challenge_counts
     where seller_id = $1 and day >= $2::date and day <= $3::date group by 1`,
    [sellerId, fromDay, toDay],
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
  lastAt: string;
};

/**
 * Paying wallets (and other payers) over a span, by net spend, one page: one grouped scan of the ledger's covering
 * index. `total` is how many payers there are in all.
 */
export async function groupPayers(sellerId: string, span: Span, page: { limit: number; offset: number }): Promise<{ rows: PayerRow[]; total: number }> {
  const { rows } = await sql<{
    payer: string;
    rails: string[];
    calls: number;
    refunds: number;
    charged: string;
    refunded: string;
    first_at: string;
    last_at: string;
    total: number;
  }>(
    `select payer, array_agg(distinct rail) filter (where rail is not null) as rails,
       count(*) filter (where kind = 'charge')::int as calls, count(*) filter (where kind = 'refund')::int as refunds,
       coalesce(sum(amount_micros) filter (where kind = 'charge'), 0)::text as charged,
       coalesce(sum(amount_micros) filter (where kind = 'refund'), 0)::text as refunded,
       to_char(min(created_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_at,
       to_char(max(created_at) filter (where kind = 'charge'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at,
       count(*) over ()::int as total
     from ledger_entries
     where seller_id = $1 and payer is not null and created_at >= $2::timestamptz at time zone 'UTC' and created_at < $3::timestamptz at time zone 'UTC'
     group by payer
     order by coalesce(sum(amount_micros) filter (where kind = 'charge'), 0) - coalesce(sum(amount_micros) filter (where kind = 'refund'), 0) desc, payer
     limit $4 offset $5`,
    [sellerId, utc(span.start), utc(span.end), page.limit, page.offset],
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
