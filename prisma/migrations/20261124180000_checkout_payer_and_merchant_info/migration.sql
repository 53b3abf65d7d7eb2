-- Issue 27: what a card payer reads before paying (seller contact, terms, refund policy), and who the card payer is
-- (an optional email for the receipt, listed in the console's Customers).
ALTER TABLE "seller_settings" ADD COLUMN "contact_email" TEXT, ADD COLUMN "terms_text" TEXT, ADD COLUMN "refund_policy" TEXT;

ALTER TABLE "card_payments" ADD COLUMN "payer_email" TEXT, ADD COLUMN "receipt_sent_at" TIMESTAMP(3);

-- Serves: the console's card payers (Customers), grouped by email.
CREATE INDEX "card_payments_payer_email_idx" ON "card_payments"("payer_email");
