-- The seller console as a product (issue 13): the funnel's facts that survive the reconciler, the ledger as a
-- self-sufficient accounting record, what a settlement cost, the seller's console settings, and covering indexes so
-- every console aggregate is an index-only scan over a date range.

-- Payments: which rows were issued as 402 challenges. Existing rows: a row born verified (x402 v1, no challenge of
-- ours) has verified_at equal to created_at (one statement), a challenge answered later has a later verified_at.
ALTER TABLE "payments" ADD COLUMN "from_challenge" BOOLEAN NOT NULL DEFAULT false;
UPDATE "payments" SET "from_challenge" = true WHERE "verified_at" IS NULL OR "verified_at" > "created_at";

-- The same key as before, now covering the funnel's and the list filters' columns.
DROP INDEX "payments_seller_id_created_at_idx";
CREATE INDEX "payments_seller_id_created_at_idx" ON "payments"("seller_id", "created_at" DESC)
  INCLUDE ("id", "status", "rail", "operation_key", "from_challenge", "payer", "failure_reason");

-- Ledger: who paid, for which operation, on which rail, copied from the payment when the row is written, and on a
-- charge what settling it cost where known (gas in wei, a provider's fee in micro-USD).
ALTER TABLE "ledger_entries" ADD COLUMN "rail" TEXT, ADD COLUMN "operation_key" TEXT, ADD COLUMN "payer" TEXT,
  ADD COLUMN "gas_cost_wei" DECIMAL(78,0), ADD COLUMN "fee_micros" BIGINT;
UPDATE "ledger_entries" l SET "rail" = p."rail", "operation_key" = p."operation_key", "payer" = p."payer"
  FROM "payments" p WHERE p."id" = l."payment_id";

DROP INDEX "ledger_entries_seller_id_created_at_idx";
CREATE INDEX "ledger_entries_seller_id_created_at_idx" ON "ledger_entries"("seller_id", "created_at" DESC)
  INCLUDE ("kind", "amount_micros", "operation_key", "rail", "payer", "gas_cost_wei", "fee_micros");

-- Audit: one target's rows (a payment's detail page).
CREATE INDEX "audit_logs_seller_id_target_type_target_id_idx" ON "audit_logs"("seller_id", "target_type", "target_id");

-- CreateTable
CREATE TABLE "payment_refusals" (
    "id" BIGSERIAL NOT NULL,
    "seller_id" TEXT NOT NULL,
    "rail" TEXT,
    "operation_key" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_refusals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "payment_refusals_seller_id_created_at_idx" ON "payment_refusals"("seller_id", "created_at")
  INCLUDE ("rail", "operation_key", "code", "reason");

ALTER TABLE "payment_refusals" ADD CONSTRAINT "payment_refusals_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "expired_challenge_counts" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "operation_key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "expired_challenge_counts_pkey" PRIMARY KEY ("seller_id","day","operation_key")
);

ALTER TABLE "expired_challenge_counts" ADD CONSTRAINT "expired_challenge_counts_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "seller_settings" (
    "seller_id" TEXT NOT NULL,
    "explorer_tx_urls" JSONB NOT NULL DEFAULT '{}',
    "eth_usd_micros" BIGINT,
    "eth_usd_set_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "seller_settings_pkey" PRIMARY KEY ("seller_id")
);

ALTER TABLE "seller_settings" ADD CONSTRAINT "seller_settings_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Closed days rolled up (server/analytics/roll-up-days.ts): a derived cache the console reads instead of scanning
-- every row of a long range. Empty strings stand for null keys.
CREATE TABLE "analytics_rollups" (
    "seller_id" TEXT NOT NULL,
    "rolled_through" DATE NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "analytics_rollups_pkey" PRIMARY KEY ("seller_id")
);

CREATE TABLE "ledger_daily" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "operation_key" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "entries" INTEGER NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "gas_cost_wei" DECIMAL(78,0) NOT NULL,
    "gas_known" INTEGER NOT NULL,
    "fee_micros" BIGINT NOT NULL,
    "fee_known" INTEGER NOT NULL,

    CONSTRAINT "ledger_daily_pkey" PRIMARY KEY ("seller_id","day","operation_key","rail","kind")
);

CREATE TABLE "payer_daily" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "rail" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "charges" INTEGER NOT NULL,
    "refunds" INTEGER NOT NULL,
    "charged_micros" BIGINT NOT NULL,
    "refunded_micros" BIGINT NOT NULL,
    "first_at" TIMESTAMP(3) NOT NULL,
    "last_charge_at" TIMESTAMP(3),

    CONSTRAINT "payer_daily_pkey" PRIMARY KEY ("seller_id","day","rail","payer")
);

CREATE TABLE "payment_daily" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "operation_key" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "from_challenge" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "payment_daily_pkey" PRIMARY KEY ("seller_id","day","operation_key","rail","status","from_challenge","reason")
);

CREATE TABLE "refusal_daily" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "operation_key" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "refusal_daily_pkey" PRIMARY KEY ("seller_id","day","operation_key","rail","code","reason")
);

CREATE TABLE "payer_activity" (
    "seller_id" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "first_day" DATE NOT NULL,
    "days" VARBIT NOT NULL,

    CONSTRAINT "payer_activity_pkey" PRIMARY KEY ("seller_id","rail","payer")
);

ALTER TABLE "payer_activity" ADD CONSTRAINT "payer_activity_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "analytics_rollups" ADD CONSTRAINT "analytics_rollups_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ledger_daily" ADD CONSTRAINT "ledger_daily_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payer_daily" ADD CONSTRAINT "payer_daily_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payment_daily" ADD CONSTRAINT "payment_daily_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "refusal_daily" ADD CONSTRAINT "refusal_daily_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
