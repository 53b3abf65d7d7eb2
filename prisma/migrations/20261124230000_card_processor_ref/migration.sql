-- The payment's name at the card processor (client_reference_id, metadata, idempotency keys): the payment id itself
-- when it is short, a digest of it when it is a signed challenge id longer than the processor takes
-- (server/payments/rails/card/processor/processor-reference.ts). Webhooks find the payment by it.
ALTER TABLE "card_payments" ADD COLUMN "processor_ref" TEXT;
CREATE UNIQUE INDEX "card_payments_processor_ref_key" ON "card_payments"("processor_ref");
