-- Card payments (issue 10). A hosted checkout is a new payment state, `incomplete` (a checkout is open, nothing paid
-- yet), between the 402 challenge and `settled` (paid, deliverable once). The processor side of a card payment lives in
-- card_payments (never a card number: brand and last four), handled webhook events in processor_events (a replay is a
-- no-op), and the built-in test processor keeps its objects in test_processor_objects.

ALTER TYPE "payment_status" ADD VALUE 'incomplete' AFTER 'challenged';

CREATE TABLE "card_payments" (
    "payment_id" TEXT NOT NULL,
    "processor" TEXT NOT NULL,
    "flow" TEXT NOT NULL,
    "checkout_id" TEXT,
    "checkout_url" TEXT,
    "checkout_status" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "processor_payment_id" TEXT,
    "card_brand" TEXT,
    "card_last4" TEXT,
    "last_error_code" TEXT,
    "last_decline_code" TEXT,
    "last_error_message" TEXT,
    "refund_status" TEXT,
    "refund_id" TEXT,
    "refund_cause" TEXT,
    "refund_error" TEXT,
    "refund_requested_at" TIMESTAMP(3),
    "refunded_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "card_payments_pkey" PRIMARY KEY ("payment_id"),
    CONSTRAINT "card_payments_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    -- Never a card number: the last four digits only.
    CONSTRAINT "card_payments_last4" CHECK ("card_last4" IS NULL OR "card_last4" ~ '^[0-9]{4}$'),
    CONSTRAINT "card_payments_flow" CHECK ("flow" IN ('checkout', 'mpp')),
    CONSTRAINT "card_payments_refund_status" CHECK ("refund_status" IS NULL OR "refund_status" IN ('pending', 'succeeded', 'failed'))
);

CREATE UNIQUE INDEX "card_payments_checkout_id_key" ON "card_payments"("checkout_id");
CREATE UNIQUE INDEX "card_payments_processor_payment_id_key" ON "card_payments"("processor_payment_id");
CREATE UNIQUE INDEX "card_payments_refund_id_key" ON "card_payments"("refund_id");
-- Serves: the reconciler's scan for refunds the processor has not confirmed yet.
CREATE INDEX "card_payments_refund_status_idx" ON "card_payments"("refund_status");

CREATE TABLE "processor_events" (
    "id" TEXT NOT NULL,
    "processor" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payment_id" TEXT,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processor_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "test_processor_objects" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "test_processor_objects_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "test_processor_objects_idempotency_key_key" ON "test_processor_objects"("idempotency_key");
