// The Refunds page's reads: every refund the ledger recorded at a seller (one row per refund: a card payment may have
// several partial ones), with the card processor's side of that refund where a card was refunded (its status and re_...
// id), the reason the seller gave (the refund's audit
// row) and the payer's email and card. Read-only; scoped to the seller from the session. Refund rows are few next to
// payments, so they are read from the ledger's rows of kind 'refund' with the payment, card and audit rows by key.
import { sql } from "../db/client";
import type { PaymentCursor } from "./seller-payments.queries";
import type { RefundFilter } from "./refund-filter";

const DAY_MS = 86_400_000;

/** A refund's status as SQL over `l` (ledger) and `cr` (card_refunds): a recorded wallet refund was verified on chain. */
const STATUS_SQL = `coalesce(cr.status, 'succeeded')`;

function filterSql(sellerId: string, f: RefundFilter, params: unknown[]): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`l.seller_id = ${p(sellerId)}`, `l.kind = 'refund'`];
  if (f.status) where.push(`${STATUS_SQL} = ${p(f.status)}`);
  if (f.rail) where.push(`l.rail = ${p(f.rail)}`);
  if (f.from) where.push(`l.created_at >= ${p(`${f.from}T00:00:00.000Z`)}::timestamptz at time zone 'UTC'`);
  if (f.to) where.push(`l.created_at < ${p(new Date(Date.parse(`${f.to}T00:00:00.000Z`) + DAY_MS).toISOString())}::timestamptz at time zone 'UTC'`);
  return where.join(" and ");
}

const FROM = `from ledger_entries l join payments p on p.id = l.payment_id left join card_payments c on c.payment_id = l.payment_id
  left join card_refunds cr on cr.payment_id = l.payment_id and cr.seq = l.seq`;

export type RefundRow = {
  id: string;
  paymentId: string;
  amountMicros: bigint;
  /** The payment's whole amount: a refund of less is partial. */
  paymentMicros: bigint;
  currency: string;
  operationKey: string | null;
  rail: string | null;
  payer: string | null;
  network: string | null;
  transaction: string | null;
  logIndex: number | null;
  status: string;
  /** The reason the seller typed, from the refund's audit row. */
  sellerReason: string | null;
  /** Why a card refund was made: seller, delivery_failed, undelivered. */
  cause: string | null;
  processorRefundId: string | null;
  refundError: string | null;
  payerEmail: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  recordedBy: string | null;
  paidAt: Date;
  createdAt: Date;
};

/** One page of refunds, newest first, after `cursor` (the last row of the previous page). */
export async function findRefunds(sellerId: string, f: RefundFilter, q: { cursor: PaymentCursor | null; take: number }): Promise<RefundRow[]> {
  const params: unknown[] = [];
  const where = [filterSql(sellerId, f, params)];
  if (q.cursor) {
    params.push(q.cursor.createdAt.toISOString(), q.cursor.id);
    where.push(`(l.created_at, l.id) < ($${params.length - 1}::timestamptz at time zone 'UTC', $${params.length})`);
  }
  params.push(q.take);
  const iso = (c: string) => `to_char(${c}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const { rows } = await sql<Record<string, string | number | null>>(
    `select l.id, l.payment_id, l.amount_micros::text as amount, p.amount_micros::text as payment_amount, l.currency, l.operation_key, l.rail, l.payer, p.network, l.transaction, l.log_index,
       ${STATUS_SQL} as status, a.after->>'reason' as seller_reason, a.email as recorded_by, cr.cause as refund_cause, cr.processor_refund_id as refund_id, cr.error as refund_error,
       c.payer_email, c.card_brand, c.card_last4, ${iso("p.created_at")} as paid_at, ${iso("l.created_at")} as created_at
     ${FROM}
     left join lateral (
       select al.after, u.email from audit_logs al left join seller_users u on u.id = al.actor_id
       where al.seller_id = l.seller_id and al.target_type = 'payment' and al.target_id = l.payment_id and al.action = 'payment.refund'
         and coalesce(cr.cause, 'seller') = 'seller'
       -- This refund's own row: written in the same transaction as its ledger row (a payment may have several).
       order by abs(extract(epoch from al.created_at - l.created_at)) limit 1
     ) a on true
     where ${where.join(" and ")}
     order by l.created_at desc, l.id desc limit $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id as string,
    paymentId: r.payment_id as string,
    amountMicros: BigInt(r.amount as string),
    paymentMicros: BigInt(r.payment_amount as string),
    currency: r.currency as string,
    operationKey: r.operation_key as string | null,
    rail: r.rail as string | null,
    payer: r.payer as string | null,
    network: r.network as string | null,
    transaction: r.transaction as string | null,
    logIndex: r.log_index as number | null,
    status: r.status as string,
    sellerReason: r.seller_reason as string | null,
    cause: r.refund_cause as string | null,
    processorRefundId: r.refund_id as string | null,
    refundError: r.refund_error as string | null,
    payerEmail: r.payer_email as string | null,
    cardBrand: r.card_brand as string | null,
    cardLast4: r.card_last4 as string | null,
    recordedBy: r.recorded_by as string | null,
    paidAt: new Date(r.paid_at as string),
    createdAt: new Date(r.created_at as string),
  }));
}

/** The filtered set's totals: how many refunds for how much, and per status. */
export async function sumRefunds(sellerId: string, f: RefundFilter): Promise<{ status: string; count: number; amountMicros: bigint }[]> {
  const params: unknown[] = [];
  const { rows } = await sql<{ status: string; count: number; amount: string }>(
    `select ${STATUS_SQL} as status, count(*)::int as count, coalesce(sum(l.amount_micros), 0)::text as amount
     ${FROM} where ${filterSql(sellerId, f, params)} group by 1`,
    params,
  );
  return rows.map((r) => ({ status: r.status, count: r.count, amountMicros: BigInt(r.amount) }));
}
