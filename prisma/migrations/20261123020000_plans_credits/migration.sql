-- Plans, credit balances and entitlements (issue 9): what a purchase is for, the credit grants it makes, the free
-- included units a human has used, the credential a payment belongs to, and plan retirement and credit validity.

ALTER TABLE "plans" ADD COLUMN "credit_validity_days" INTEGER NOT NULL DEFAULT 365;

ALTER TABLE "payments" ADD COLUMN "credential_id" TEXT;
CREATE INDEX "payments_credential_id_created_at_idx" ON "payments"("credential_id", "created_at" DESC);

CREATE TABLE "plan_purchases" (
    "payment_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'purchase',
    "amount_micros" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plan_purchases_pkey" PRIMARY KEY ("payment_id"),
    CONSTRAINT "plan_purchases_amount_positive" CHECK ("amount_micros" > 0)
);

CREATE TABLE "credit_grants" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "source_payment_id" TEXT NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "remaining_micros" BIGINT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_grants_pkey" PRIMARY KEY ("id"),
    -- The balance is never below zero nor above what was bought, whatever code path writes it.
    CONSTRAINT "credit_grants_remaining_in_bounds" CHECK ("remaining_micros" >= 0 AND "remaining_micros" <= "amount_micros")
);

CREATE UNIQUE INDEX "credit_grants_source_payment_id_key" ON "credit_grants"("source_payment_id");
CREATE INDEX "credit_grants_credential_id_expires_at_idx" ON "credit_grants"("credential_id", "expires_at");
CREATE INDEX "credit_grants_seller_id_plan_id_idx" ON "credit_grants"("seller_id", "plan_id");

CREATE TABLE "included_unit_usage" (
    "seller_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "meter_key" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "included_unit_usage_pkey" PRIMARY KEY ("seller_id", "human_id", "meter_key"),
    CONSTRAINT "included_unit_usage_used_not_negative" CHECK ("used" >= 0)
);

ALTER TABLE "plan_purchases" ADD CONSTRAINT "plan_purchases_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "plan_purchases" ADD CONSTRAINT "plan_purchases_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "plan_purchases" ADD CONSTRAINT "plan_purchases_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_source_payment_id_fkey" FOREIGN KEY ("source_payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
