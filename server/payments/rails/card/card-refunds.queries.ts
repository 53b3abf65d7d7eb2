// The card rail's refund statements: a refund started under the state guard (a seller's refund, in full or in part,
// an undelivered or failed delivery's), and the processor's result recorded. Apart from the checkout's statements
// (card.queries.ts).
import { revokePurchasedCredit } from "../../../billing/billing.queries";
import { recordAudit } from "../../../audit/audit.queries";
import { db, sql, type Tx } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { transition } from "../../payment-state";

const NOW = "(now() at time zone 'UTC')";
/** A seller may refund what was served; a failed or missing delivery refunds only what was paid and not served. */
const REFUND = { seller: transition(["settled", "consumed"], "refunded"), undelivered: transition("settled", "refunded") };

const REFUND_TX = { maxWait: 10_000, timeout: 30_000 };

export type RefundCause = "delivery_failed" | "undelivered" | "seller";

/** One card refund to make: who asks and why, and how much (absent: all that is left). */
export type CardRefundRequest = {
  paymentId: string;
  sellerId: string;
  cause: RefundCause;
  reason: string;
  /** Absent: what is left of the payment (the whole of it when nothing was refunded yet). */
  amountMicros?: bigint;
  /** The console's key for one submit: a second request with it makes no second refund. */
  requestKey?: string;
  /** The delivery's lease: only the claim that holds it may refund (a failed delivery). */
  lease?: string;
  /** Only a payment no delivery holds (the reconciler's undelivered refunds). */
  requireUnleased?: boolean;
  /** The console's refunds: who, for the audit row. */
  actorId?: string | null;
  /** The seller's own words for why, for the audit row. */
  sellerReason?: string;
  upstreamStatus?: number;
};

/** Started: refund number `seq` of the payment is decided; duplicate: this request key already made refund `seq`. */
export type StartRefundResult = { type: "started"; seq: number } | { type: "duplicate"; seq: number } | { type: "not_refundable" };

type Moved = { status: string; meter_key: string | null; amount_micros: bigint; refunded_micros: bigint; refund_micros: bigint; currency: string };

/**
 * The decision to refund (part of) a card payment, made durable before the processor is asked: the payment's sum
 * refunded moves up (and its state to refunded when the sum reaches its amount), the ledger's refund row (reversing
 * the charge row: same meter and units, this refund's amount), the refund's outbox row (`card_refunds`, pending) in one
 * transaction, plus the audit row when a seller asked. The processor call follows; if it cannot be made now, the
 * reconciler makes it (the same idempotency key), so a refund decided is a refund sent, once. The one UPDATE is the
 * guard: of any number of parallel refunds of one payment, those whose sum would pass its amount match no row.
 */
export async function startCardRefund(r: CardRefundRequest): Promise<StartRefundResult> {
  return db.$transaction(async (tx: Tx): Promise<StartRefundResult> => {
    // Under the payment's row lock: a retried request finds the refund its key made.
    await tx.$queryRawUnsafe(`select 1 from payments where id = $1 and seller_id = $2 and rail = 'card' for update`, r.paymentId, r.sellerId);
    if (r.requestKey) {
      const same = await tx.cardRefund.findUnique({ where: { paymentId_requestKey: { paymentId: r.paymentId, requestKey: r.requestKey } } });
      if (same) return { type: "duplicate", seq: same.seq };
    }
    // Fenced: a failed delivery refunds only under the lease that claimed it; the reconciler only what no one holds.
    const move = r.cause === "seller" ? REFUND.seller : REFUND.undelivered;
    const moved = await tx.$queryRawUnsafe<Moved[]>(
      `with before as (select id, status, coalesce($7::bigint, amount_micros - refunded_micros) as refund from payments where id = $1 and seller_id = $2 and rail = 'card')
       update payments p set refunded_micros = p.refunded_micros + before.refund,
         status = case when p.refunded_micros + before.refund = p.amount_micros then ${move.set} else p.status end,
         locked_until = case when p.refunded_micros + before.refund = p.amount_micros then null else p.locked_until end,
         failure_reason = case when p.refunded_micros + before.refund = p.amount_micros then $3 else p.failure_reason end,
         upstream_status = coalesce($4, p.upstream_status), updated_at = ${NOW}
       from before where p.id = before.id and ${move.guard("p.status")} and before.refund > 0 and p.refunded_micros + before.refund <= p.amount_micros
         and ($5::timestamp is null or p.locked_until = $5::timestamp)
         and (not $6::boolean or p.locked_until is null or p.locked_until < ${NOW})
       returning before.status::text as status, p.meter_key, p.amount_micros, p.refunded_micros, before.refund as refund_micros, p.currency`,
      r.paymentId,
      r.sellerId,
      r.reason,
      r.upstreamStatus ?? null,
      r.lease ?? null,
      r.requireUnleased ?? false,
      r.amountMicros ?? null,
    );
    const before = moved[0];
    if (!before) return { type: "not_refundable" };
    const full = BigInt(before.refunded_micros) === BigInt(before.amount_micros);
    const refund = BigInt(before.refund_micros);
    const seq = await writeRefundLedgerRow(tx, r, before, refund);
    // A plan bought by card loses its credit only when the whole price is returned; a partial refund is goodwill.
    if (full) await revokePurchasedCredit(tx, r.paymentId);
    await tx.cardRefund.create({
      data: { paymentId: r.paymentId, seq, amountMicros: refund, status: "pending", cause: r.cause, requestKey: r.requestKey ?? null },
    });
    await tx.cardPayment.update({
      where: { paymentId: r.paymentId },
      data: { refundStatus: "pending", refundCause: r.cause, refundRequestedAt: new Date(), refundError: null },
    });
    if (r.cause === "seller") await auditSellerRefund(tx, r, before, refund, full);
    return { type: "started", seq };
    // Refunds of one payment queue on its row lock: room for a burst of them (a doubled click, two tabs) to wait their turn.
  }, REFUND_TX);
}

/** The ledger's refund row, numbered after the payment's earlier refunds: it reverses the charge row (same meter, units, operation, rail and payer) for this refund's amount. */
async function writeRefundLedgerRow(tx: Tx, r: CardRefundRequest, before: Moved, refund: bigint): Promise<number> {
  const seq = await tx.ledgerEntry.count({ where: { paymentId: r.paymentId, kind: "refund" } });
  const charge = await tx.ledgerEntry.findUnique({
    where: { paymentId_kind_seq: { paymentId: r.paymentId, kind: "charge", seq: 0 } },
    select: { meterKey: true, units: true, currency: true, rail: true, operationKey: true, payer: true },
  });
  await tx.ledgerEntry.create({
    data: {
      id: newId("led"),
      sellerId: r.sellerId,
      paymentId: r.paymentId,
      kind: "refund",
      seq,
      // The refund reverses the charge row: same meter, units, operation, rail and payer, this refund's amount.
      rail: charge?.rail ?? "card",
      operationKey: charge?.operationKey ?? null,
      payer: charge?.payer ?? null,
      meterKey: charge?.meterKey ?? before.meter_key,
      units: charge?.units ?? 1,
      amountMicros: refund,
      currency: charge?.currency ?? before.currency,
    },
  });
  return seq;
}

/** The audit row of a seller's refund: the payment's sums before and after. */
async function auditSellerRefund(tx: Tx, r: CardRefundRequest, before: Moved, refund: bigint, full: boolean): Promise<void> {
  await recordAudit(tx, {
    sellerId: r.sellerId,
    actorId: r.actorId ?? null,
    action: "payment.refund",
    targetId: r.paymentId,
    before: { status: before.status, amountMicros: String(before.amount_micros), refundedMicros: String(BigInt(before.refunded_micros) - refund) },
    after: {
      status: full ? "refunded" : "partially_refunded",
      amountMicros: String(refund),
      refundedMicros: String(before.refunded_micros),
      rail: "card",
      refund: "requested from the card processor",
      ...(r.sellerReason ? { reason: r.sellerReason } : {}),
    },
  });
}

/** A card refund as its outbox row keeps it, with what the processor call needs. */
export async function findCardRefund(paymentId: string, seq: number) {
  return db.cardRefund.findUnique({
    where: { paymentId_seq: { paymentId, seq } },
    include: { card: { select: { processor: true, processorPaymentId: true } } },
  });
}

/** Which of a payment's refunds the processor's refund `processorRefundId` is: by its id, else its latest pending one. */
export async function findRefundSeq(paymentId: string, processorRefundId: string): Promise<number | null> {
  const known = await db.cardRefund.findUnique({ where: { processorRefundId }, select: { seq: true, paymentId: true } });
  if (known) return known.paymentId === paymentId ? known.seq : null;
  const pending = await db.cardRefund.findFirst({ where: { paymentId, status: "pending" }, orderBy: { seq: "desc" }, select: { seq: true } });
  return pending?.seq ?? null;
}

/** What the processor answered for a refund (the inline call, the reconciler's retry, or a refund webhook). */
export async function recordRefundResult(
  paymentId: string,
  seq: number,
  result: { status: "succeeded" | "pending" | "failed"; refundId: string | null; error?: string },
): Promise<void> {
  const error = result.error?.slice(0, 500) ?? null;
  await sql(
    `update card_refunds set status = $3, processor_refund_id = coalesce($4, processor_refund_id), error = $5,
       refunded_at = case when $3 = 'succeeded' then coalesce(refunded_at, ${NOW}) else refunded_at end, updated_at = ${NOW}
     where payment_id = $1 and seq = $2 and not (status = 'succeeded' and $3 <> 'succeeded')`,
    [paymentId, seq, result.status, result.refundId, error],
  );
  // The card row mirrors the latest refund, for the readers of one payment.
  await sql(
    `update card_payments c set refund_status = r.status, refund_id = r.processor_refund_id, refund_error = r.error, refunded_at = r.refunded_at, updated_at = ${NOW}
     from card_refunds r where c.payment_id = $1 and r.payment_id = c.payment_id
       and r.seq = (select max(seq) from card_refunds where payment_id = $1)`,
    [paymentId],
  );
}
