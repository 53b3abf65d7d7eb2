-- Issue 38: partial refunds where the processor allows them (the card rail, like Stripe, several refunds up to the
-- charge). A payment keeps the sum refunded so far, each refund is one ledger row (numbered per payment by `seq`) and,
-- on the card rail, one processor refund of its own (card_refunds: its outbox, idempotency key and processor id).
-- The payment moves to refunded when the sum reaches its amount. The sum is moved only by one guarded UPDATE
-- (refunded + amount <= amount of the payment), so parallel refunds never overshoot.

-- AlterTable
ALTER TABLE "payments" ADD COLUMN "refunded_micros" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK ("refunded_micros" >= 0 AND "refunded_micros" <= "amount_micros");
UPDATE "payments" SET "refunded_micros" = "amount_micros" WHERE "status" = 'refunded';

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN "seq" INTEGER NOT NULL DEFAULT 0;

-- DropIndex
DROP INDEX "ledger_entries_payment_id_kind_key";

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_payment_id_kind_seq_key" ON "ledger_entries"("payment_id", "kind", "seq");

-- CreateTable
CREATE TABLE "card_refunds" (
    "payment_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "processor_refund_id" TEXT,
    "cause" TEXT NOT NULL,
    "error" TEXT,
    "request_key" TEXT,
    "requested_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "refunded_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_refunds_pkey" PRIMARY KEY ("payment_id", "seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "card_refunds_processor_refund_id_key" ON "card_refunds"("processor_refund_id");

-- CreateIndex
CREATE UNIQUE INDEX "card_refunds_payment_id_request_key_key" ON "card_refunds"("payment_id", "request_key");

-- CreateIndex
CREATE INDEX "card_refunds_status_idx" ON "card_refunds"("status");

-- AddForeignKey
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "card_payments"("payment_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The refunds made before this migration: one per card payment, in full.
INSERT INTO "card_refunds" ("payment_id", "seq", "amount_micros", "status", "processor_refund_id", "cause", "error", "requested_at", "refunded_at", "updated_at")
SELECT c."payment_id", 0, p."amount_micros", c."refund_status", c."refund_id", coalesce(c."refund_cause", 'seller'), c."refund_error",
       coalesce(c."refund_requested_at", c."updated_at"), c."refunded_at", c."updated_at"
FROM "card_payments" c JOIN "payments" p ON p."id" = c."payment_id" WHERE c."refund_status" IS NOT NULL;

-- A payment event's refund block: all refunded (several partial refunds end refunded too), with the transfer and time of the
-- last refund. Quoted as 20261124210000_payment_phase_events quotes it, which it replaces.
CREATE OR REPLACE FUNCTION event_payment_snapshot(p payments) RETURNS jsonb LANGUAGE plpgsql STABLE AS E'
BEGIN
  RETURN jsonb_build_object(
    ''payment'', jsonb_build_object(
      ''id'', p.id, ''status'', p.status, ''rail'', p.rail, ''amountMicros'', p.amount_micros::text, ''currency'', p.currency,
      ''method'', p.method, ''path'', p.path, ''query'', p.query, ''operationKey'', p.operation_key, ''meterKey'', p.meter_key,
      ''payer'', p.payer, ''transaction'', p.transaction, ''failureReason'', p.failure_reason, ''credentialId'', p.credential_id,
      ''expiresAt'', p.expires_at, ''createdAt'', p.created_at, ''settledAt'', p.settled_at,
      ''verifiedAt'', p.verified_at, ''fromChallenge'', p.from_challenge, ''idempotencyKeyed'', coalesce(p.lock_key LIKE ''%:idem:%'', false)),
    ''settlement'', (SELECT jsonb_build_object(''status'', s.status, ''deliveredFirst'', s.delivered_first) FROM settlements s WHERE s.payment_id = p.id),
    ''purchase'', EXISTS (SELECT 1 FROM plan_purchases pp WHERE pp.payment_id = p.id),
    ''refund'', CASE WHEN p.status = ''refunded'' THEN
      (SELECT jsonb_build_object(''amountMicros'', p.refunded_micros::text, ''transaction'', l.transaction, ''logIndex'', l.log_index, ''createdAt'', l.created_at)
       FROM ledger_entries l WHERE l.payment_id = p.id AND l.kind = ''refund'' ORDER BY l.seq DESC LIMIT 1) END,
    ''card'', CASE WHEN p.rail = ''card'' THEN
      (SELECT jsonb_build_object(''flow'', c.flow, ''checkoutStatus'', c.checkout_status, ''cardBrand'', c.card_brand, ''cardLast4'', c.card_last4,
         ''lastErrorCode'', c.last_error_code, ''lastDeclineCode'', c.last_decline_code, ''lastErrorMessage'', c.last_error_message,
         ''refundStatus'', c.refund_status, ''refundCause'', c.refund_cause, ''refundError'', c.refund_error,
         ''refundRequestedAt'', c.refund_requested_at, ''refundedAt'', c.refunded_at)
       FROM card_payments c WHERE c.payment_id = p.id) END)\x3B
END\x3B
';
