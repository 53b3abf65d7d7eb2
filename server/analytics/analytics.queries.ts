// The console's ledger aggregates, as SQL: a range is read as the closed days its seller's rollup has reached (the
// *_daily tables, a few rows per day) plus the live tables for the days after (today, usually), each answered from a
// covering index ((seller_id, created_at desc) INCLUDE ...), never rows loaded into memory. `through` is the seller's
// rolled-up day (inclusive; null: nothing rolled up). The funnel's facts are in funnel.queries.ts.
import { sql } from "../db/client";
import { splitSpan, utc, type Span } from "./span";

export type { Span };

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
