// The card rail's refund statements: a refund started under the state guard (a seller's refund, an undelivered or
// failed delivery's), and the processor's result recorded. Apart from the checkout's statements (card.queries.ts).
import { revokePurchasedCredit } from "../../../billing/billing.queries";
import { recordAudit } from "../../../audit/audit.queries";
import { db, sql, type Tx } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { transition } from "../../payment-state";

const NOW = "(now() at time zone 'UTC')";
/** A seller may refund what was served; a failed or missing delivery refunds only what was paid and not served. */
const REFUND = { seller: transition(["settled", "consumed"], "refunded"), undelivered: transition("settled", "refunded") };

export type RefundCause = "delivery_failed" | "undelivered" | "seller";

export type StartRefund = {
  paymentId: string;
  sellerId: string;
  cause: RefundCause;
  reason: string;
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

/**
 * The decision to refund a card payment, made durable before the processor is asked: the payment's move to refunded,
 * the ledger's refund row (reversing the charge row: same meter and units, the payment's amount) and the refund
 * outbox (`refund_status = pending`) in one transaction, plus the audit row when a seller asked. The processor call
 * follows; if it cannot be made now, the reconciler makes it (the same idempotency key), so a refund decided is a
 * refund sent, once.
 */
export type StartRefundResult = { type: "started" } | { type: "not_refundable" };

export async function startCardRefund(r: StartRefund): Promise<StartRefundResult> {
  return db.$transaction(async (tx: Tx): Promise<StartRefundResult> => {
    // Fenced: a failed delivery refunds only under the lease that claimed it; the reconciler only what no one holds.
    const move = r.cause === "seller" ? REFUND.seller : REFUND.undelivered;
    const moved = await tx.$queryRawUnsafe<{ status: string; meter_key: string | null; amount_micros: bigint; currency: string }[]>(
      `with before as (select id, status from payments where id = $1 and seller_id = $2 and rail = 'card' for update)
       update payments p set status = ${move.set}, locked_until = null, failure_reason = $3, upstream_status = coalesce($4, p.upstream_status), updated_at = ${NOW}
       from before where p.id = before.id and ${move.guard("p.status")}
         and ($5::timestamp is null or p.locked_until = $5::timestamp)
         and (not $6::boolean or p.locked_until is null or p.locked_until < ${NOW})
       returning before.status::text as status, p.meter_key, p.amount_micros, p.currency`,
      r.paymentId,
      r.sellerId,
      r.reason,
      r.upstreamStatus ?? null,
      r.lease ?? null,
      r.requireUnleased ?? false,
    );
    const before = moved[0];
    if (!before) return { type: "not_refundable" };
    const charge = await tx.ledgerEntry.findUnique({
      where: { paymentId_kind: { paymentId: r.paymentId, kind: "charge" } },
      select: { meterKey: true, units: true, currency: true, rail: true, operationKey: true, payer: true },
    });
    await tx.ledgerEntry.create({
      data: {
        id: newId("led"),
        sellerId: r.sellerId,
        paymentId: r.paymentId,
        kind: "refund",
        // The refund reverses the charge row: same meter, units, operation, rail and payer, the payment's amount.
        rail: charge?.rail ?? "card",
        operationKey: charge?.operationKey ?? null,
        payer: charge?.payer ?? null,
        meterKey: charge?.meterKey ?? before.meter_key,
        units: charge?.units ?? 1,
        amountMicros: BigInt(before.amount_micros),
        currency: charge?.currency ?? before.currency,
      },
    });
    await revokePurchasedCredit(tx, r.paymentId);
    await tx.cardPayment.update({
      where: { paymentId: r.paymentId },
      data: { refundStatus: "pending", refundCause: r.cause, refundRequestedAt: new Date(), refundError: null },
    });
    if (r.cause === "seller")
      await recordAudit(tx, {
        sellerId: r.sellerId,
        actorId: r.actorId ?? null,
        action: "payment.refund",
        targetId: r.paymentId,
        before: { status: before.status, amountMicros: String(before.amount_micros) },
        after: {
          status: "refunded",
          amountMicros: String(before.amount_micros),
          rail: "card",
          refund: "requested from the card processor",
          ...(r.sellerReason ? { reason: r.sellerReason } : {}),
        },
      });
    return { type: "started" };
  });
}

/** What the processor answered for a refund (the inline call, the reconciler's retry, or a refund webhook). */
export async function recordRefundResult(
  paymentId: string,
  result: { status: "succeeded" | "pending" | "failed"; refundId: string | null; error?: string },
): Promise<void> {
  await sql(
    `update card_payments set refund_status = $2, refund_id = coalesce($3, refund_id), refund_error = $4,
       refunded_at = case when $2 = 'succeeded' then coalesce(refunded_at, ${NOW}) else refunded_at end, updated_at = ${NOW}
     where payment_id = $1 and refund_status is not null
       and not (refund_status = 'succeeded' and $2 <> 'succeeded')`,
    [paymentId, result.status, result.refundId, result.error?.slice(0, 500) ?? null],
  );
}
