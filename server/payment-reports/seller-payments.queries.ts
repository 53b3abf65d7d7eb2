// The seller console's reads of payments and the ledger. Read-only; every query is scoped by the seller id the
// caller took from the session. The filtered list and its CSV export share one WHERE clause, read in keyset pages
// served by payments (seller_id, created_at desc) INCLUDE (id, status, rail, operation_key, payer, ...).
import { db, sql } from "../db/client";
import type { PaymentStatus } from "../db/generated/client";
import type { Transport } from "../payments/paid-call";
import type { PaymentFilter } from "./payment-filter";
import { PAID_STATES, stateSql, statesSql } from "../payments/payment-state";

/** Keyset position: the last row of the previous page (and its amount, for the amount order). */
export type PaymentCursor = { createdAt: Date; id: string; amountMicros?: bigint };

const utc = (d: Date) => d.toISOString();
const DAY_MS = 86_400_000;

/** A filter as the queries take it: with the implicit rails (prepaid credit), whose holds are usage, not payments. */
export type ScopedPaymentFilter = PaymentFilter & { implicitRails: readonly string[] };

/** The filter as SQL over `payments p`, parameters appended to `params` (always bound, never interpolated). */
function filterSql(sellerId: string, f: ScopedPaymentFilter, params: unknown[]): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`p.seller_id = ${p(sellerId)}`];
  if (f.status?.length) where.push(`p.status::text = any(${p(f.status)}::text[])`);
  else if (!f.includeChallenged) where.push(`p.status <> ${stateSql("challenged")}`);
  if (f.rail) where.push(`p.rail = ${p(f.rail)}`);
  else if (f.usage) where.push(`p.rail = any(${p(f.implicitRails)}::text[])`);
  else if (f.implicitRails.length) where.push(`(p.rail is null or p.rail <> all(${p(f.implicitRails)}::text[]))`);
  if (f.operation) where.push(`p.operation_key = ${p(f.operation)}`);
  if (f.transport) where.push(`p.transport = ${p(f.transport)}`);
  if (f.payer) where.push(`p.payer = ${p(f.payer.trim().toLowerCase())}`);
  if (f.q) where.push(searchSql(sellerId, f.q, p));
  if (f.from) where.push(`p.created_at >= ${p(`${f.from}T00:00:00.000Z`)}::timestamptz at time zone 'UTC'`);
  if (f.to) where.push(`p.created_at < ${p(utc(new Date(Date.parse(`${f.to}T00:00:00.000Z`) + DAY_MS)))}::timestamptz at time zone 'UTC'`);
  return where.join(" and ");
}

/**
 * The search box: what the text looks like decides where it is looked for: a payment id (or its start), a wallet (the
 * payer), a transaction hash, a card processor's payment or checkout id or the reference it was given (`payref_`), an agent credential (the payer of its draws,
 * or the credential a purchase was for), a person's email (the credentials they claimed here). Anything else matches
 * the start of a payment id or payer. Like every filter, it is read over the seller's covering index.
 */
function searchSql(sellerId: string, raw: string, p: (v: unknown) => string): string {
  const q = raw.trim();
  const lower = q.toLowerCase();
  const escape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
  const prefix = `${escape(lower)}%`;
  // A whole payment id, or the start of one (as a seller copies it from a receipt or a log line). A signed id
  // (`pay_<payload>.<mac>`, docs/challenges.md) is base64url, so its case is kept; an id written by lib/ids.ts is lower case.
  if (/^pay_[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*)?$/.test(q)) return `(p.id like ${p(`${escape(q)}%`)} or p.id like ${p(prefix)})`;
  // The reference a card processor knows a payment with a long id by (client_reference_id: processor-reference.ts).
  if (/^payref_[A-Za-z0-9_-]{32}$/.test(q)) return `exists (select 1 from card_payments c where c.payment_id = p.id and c.processor_ref = ${p(q)})`;
  if (/^0x[0-9a-f]{40}$/i.test(q)) return `p.payer = ${p(lower)}`;
  if (/^0x[0-9a-f]{64}$/i.test(q)) return `lower(p.transaction) = ${p(lower)}`;
  if (/^(pi|cs)_[A-Za-z0-9_]+$/.test(q))
    return `exists (select 1 from card_payments c where c.payment_id = p.id and (c.processor_payment_id = ${p(q)} or c.checkout_id = ${p(q)}))`;
  if (/^agt_[A-Za-z0-9]+$/.test(q)) return `(p.credential_id = ${p(q)} or p.payer = ${p(q)})`;
  if (q.includes("@"))
    // ... or the card payments whose payer gave this email at checkout.
    return `(p.credential_id in (select a.id from agent_credentials a join humans h on h.id = a.human_id where a.seller_id = ${p(sellerId)} and h.email = ${p(lower)})
      or exists (select 1 from card_payments c where c.payment_id = p.id and c.payer_email = ${p(lower)}))`;
  return `(p.id like ${p(prefix)} or p.payer like ${p(prefix)})`;
}

/** The list's order and the keyset condition after a cursor, per sort. (created_at, id) is unique, so no row repeats. */
const ORDER = {
  newest: "p.created_at desc, p.id desc",
  oldest: "p.created_at asc, p.id asc",
  amount: "p.amount_micros desc, p.created_at desc, p.id desc",
} as const;

function cursorSql(c: PaymentCursor | null, params: unknown[], sort: PaymentFilter["sort"] = "newest"): string {
  if (!c) return "";
  params.push(utc(c.createdAt), c.id);
  const at = `$${params.length - 1}::timestamptz at time zone 'UTC'`;
  const id = `$${params.length}`;
  if (sort === "oldest") return ` and p.created_at >= ${at} and (p.created_at > ${at} or p.id > ${id})`;
  if (sort === "amount") {
    params.push((c.amountMicros ?? 0n).toString());
    return ` and (p.amount_micros, p.created_at, p.id) < ($${params.length}::bigint, ${at}, ${id})`;
  }
  // The first condition bounds the index scan; the second breaks ties on created_at by id.
  return ` and p.created_at <= ${at} and (p.created_at < ${at} or p.id < ${id})`;
}

export type ConsolePaymentRow = {
  id: string;
  createdAt: Date;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  amountMicros: bigint;
  currency: string;
  rail: string | null;
  transport: Transport;
  payer: string | null;
  status: PaymentStatus;
  network: string | null;
  transaction: string | null;
  failureReason: string | null;
  expiresAt: Date;
  settledAt: Date | null;
  /** The settlement outbox row's state, if the charge was decided. */
  settlementStatus: string | null;
  /** The paid answer went out before the charge was included on chain (server/payments/settle-payment.ts). */
  deliveredFirst: boolean;
  refundTransaction: string | null;
  refundedAt: Date | null;
  refundedMicros: bigint;
  /** Every refund in the order made (a card payment may have several partial ones): the CSV lists each. */
  refunds: { amountMicros: bigint; at: Date; transaction: string | null; processorRefundId: string | null }[];
  /** Card payments: what a seller used to Stripe looks for (never a card number: there is none to read). */
  card: {
    processor: string;
    flow: string;
    brand: string | null;
    last4: string | null;
    processorPaymentId: string | null;
    refundStatus: string | null;
    refundCause: string | null;
    refundId: string | null;
    /** The email the card payer gave (on our checkout or the processor's), lower case. */
    payerEmail?: string | null;
  } | null;
};

type RawRow = {
  id: string;
  created_at: string;
  method: string;
  path: string;
  query: string;
  operation_key: string;
  amount_micros: string;
  refunded_micros: string;
  currency: string;
  rail: string | null;
  transport: string;
  payer: string | null;
  status: PaymentStatus;
  network: string | null;
  transaction: string | null;
  failure_reason: string | null;
  expires_at: string;
  settled_at: string | null;
  settlement_status: string | null;
  delivered_first: boolean | null;
  refund_tx: string | null;
  refunded_at: string | null;
  refunds: { amount: string; at: string; tx: string | null; ref: string | null }[] | null;
  card_processor: string | null;
  card_flow: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_processor_payment_id: string | null;
  card_refund_status: string | null;
  card_refund_cause: string | null;
  card_refund_id: string | null;
  card_payer_email: string | null;
};

// `timestamp(3)` columns come back from pg as local-time Dates: read them as text in UTC instead.
const COLUMNS = `p.id, to_char(p.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, p.method, p.path, p.query, p.operation_key,
  p.amount_micros::text as amount_micros, p.refunded_micros::text as refunded_micros, p.currency, p.rail, p.transport, p.payer, p.status, p.network, p.transaction, p.failure_reason,
  to_char(p.expires_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at, to_char(p.settled_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as settled_at,
  (select s.status from settlements s where s.payment_id = p.id) as settlement_status,
  (select s.delivered_first from settlements s where s.payment_id = p.id) as delivered_first,
  r.transaction as refund_tx, to_char(r.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as refunded_at, r.refunds,
  c.processor as card_processor, c.flow as card_flow, c.card_brand, c.card_last4, c.processor_payment_id as card_processor_payment_id,
  c.refund_status as card_refund_status, c.refund_cause as card_refund_cause, c.refund_id as card_refund_id, c.payer_email as card_payer_email`;

const toRow = (r: RawRow): ConsolePaymentRow => ({
  id: r.id,
  createdAt: new Date(r.created_at),
  method: r.method,
  path: r.path,
  query: r.query,
  operationKey: r.operation_key,
  amountMicros: BigInt(r.amount_micros),
  refundedMicros: BigInt(r.refunded_micros),
  currency: r.currency,
  rail: r.rail,
  // The column's check constraint holds it to these.
  transport: r.transport as Transport,
  payer: r.payer,
  status: r.status,
  network: r.network,
  transaction: r.transaction,
  failureReason: r.failure_reason,
  expiresAt: new Date(r.expires_at),
  settledAt: r.settled_at ? new Date(r.settled_at) : null,
  settlementStatus: r.settlement_status,
  deliveredFirst: r.delivered_first === true,
  refundTransaction: r.refund_tx,
  refundedAt: r.refunded_at ? new Date(r.refunded_at) : null,
  refunds: (r.refunds ?? []).map((f) => ({ amountMicros: BigInt(f.amount), at: new Date(f.at), transaction: f.tx, processorRefundId: f.ref })),
  card: r.card_processor
    ? {
        processor: r.card_processor,
        flow: r.card_flow!,
        brand: r.card_brand,
        last4: r.card_last4,
        processorPaymentId: r.card_processor_payment_id,
        refundStatus: r.card_refund_status,
        refundCause: r.card_refund_cause,
        refundId: r.card_refund_id,
        payerEmail: r.card_payer_email,
      }
    : null,
});

/** Over `p`: the latest refund's transaction and time, and every refund (amount, time, transfer, the card processor's re_...) by `seq`. */
const REFUNDS_SQL = `select (array_agg(l.transaction order by l.seq desc))[1] as transaction, max(l.created_at) as created_at,
    json_agg(json_build_object('amount', l.amount_micros::text, 'at', to_char(l.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'tx', l.transaction, 'ref', cr.processor_refund_id)
      order by l.seq) as refunds
  from ledger_entries l left join card_refunds cr on cr.payment_id = l.payment_id and cr.seq = l.seq
  where l.payment_id = p.id and l.kind = 'refund'`;

/** A seller's payments matching a filter, in the filter's order, `take` of them after `cursor`. */
export async function findSellerPayments(
  sellerId: string,
  f: ScopedPaymentFilter,
  q: { cursor: PaymentCursor | null; take: number },
): Promise<ConsolePaymentRow[]> {
  const params: unknown[] = [];
  const where = filterSql(sellerId, f, params) + cursorSql(q.cursor, params, f.sort);
  params.push(q.take);
  const order = ORDER[f.sort ?? "newest"];
  // The page's ids first, from the covering index alone (every filtered column is in it), then the page's rows: a
  // selective filter reads index entries, not a heap row per candidate.
  const { rows } = await sql<RawRow>(
    `with page as (
       select p.id from payments p where ${where} order by ${order} limit $${params.length}
     )
     select ${COLUMNS} from page join payments p on p.id = page.id -- Its refunds (a card payment may have several partial ones) and the latest's transfer and time.
       left join lateral (${REFUNDS_SQL}) r on true
       left join card_payments c on c.payment_id = p.id
     order by ${order}`,
    params,
  );
  return rows.map(toRow);
}

/** The filtered set's totals: how many payments, what they were for, what of it was paid, and what was refunded. */
export async function sumSellerPayments(
  sellerId: string,
  f: ScopedPaymentFilter,
): Promise<{ count: number; amountMicros: bigint; paidCount: number; paidMicros: bigint; refundedCount: number; refundedMicros: bigint }> {
  const params: unknown[] = [];
  const where = filterSql(sellerId, f, params);
  const { rows } = await sql<{ n: number; amount: string; paid_n: number; paid: string; refunded_n: number; refunded: string }>(
    `select count(*)::int as n, coalesce(sum(p.amount_micros), 0)::text as amount,
       count(*) filter (where p.status in ${statesSql(PAID_STATES)})::int as paid_n,
       coalesce(sum(p.amount_micros) filter (where p.status in ${statesSql(PAID_STATES)}), 0)::text as paid,
       count(*) filter (where p.status = ${stateSql("refunded")} or p.refunded_micros > 0)::int as refunded_n,
       -- A refunded payment gave back its amount; a partly refunded one (still paid) what its refunds sum to.
       coalesce(sum(case when p.status = ${stateSql("refunded")} then p.amount_micros else p.refunded_micros end), 0)::text as refunded
     from payments p where ${where}`,
    params,
  );
  const r = rows[0]!;
  return {
    count: r.n,
    amountMicros: BigInt(r.amount),
    paidCount: r.paid_n,
    paidMicros: BigInt(r.paid),
    refundedCount: r.refunded_n,
    refundedMicros: BigInt(r.refunded),
  };
}

/** Count and amount of a seller's payments in each state, per rail (one aggregate over the seller's rows). */
export async function countSellerPaymentsByStatus(
  sellerId: string,
): Promise<{ status: PaymentStatus; rail: string | null; count: number; amountMicros: bigint }[]> {
  const groups = await db.payment.groupBy({ by: ["status", "rail"], where: { sellerId }, _count: { _all: true }, _sum: { amountMicros: true } });
  return groups.map((g) => ({ status: g.status, rail: g.rail, count: g._count._all, amountMicros: g._sum.amountMicros ?? 0n }));
}

/** Sum of a seller's ledger entries by kind (charge, refund). */
export async function sumSellerLedger(sellerId: string): Promise<{ kind: string; entries: number; amountMicros: bigint }[]> {
  const groups = await db.ledgerEntry.groupBy({ by: ["kind"], where: { sellerId }, _count: { _all: true }, _sum: { amountMicros: true } });
  return groups.map((g) => ({ kind: g.kind, entries: g._count._all, amountMicros: g._sum.amountMicros ?? 0n }));
}

/** The operations of the seller's catalog (the operation filter's menu). */
export async function findOperationKeys(sellerId: string): Promise<string[]> {
  const { rows } = await sql<{ k: string }>(`select key as k from operations where seller_id = $1 order by 1`, [sellerId]);
  return rows.map((r) => r.k);
}
