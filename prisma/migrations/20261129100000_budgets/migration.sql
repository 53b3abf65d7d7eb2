-- Issue 36: budgets a person sets on the agents they claimed, enforced by the storefront (server/budgets/README.md).

-- CreateTable
CREATE TABLE "budgets" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "per_call_micros" BIGINT,
    "per_day_micros" BIGINT,
    "per_month_micros" BIGINT,
    "day_start" DATE NOT NULL,
    "day_used_micros" BIGINT NOT NULL DEFAULT 0,
    "month_start" DATE NOT NULL,
    "month_used_micros" BIGINT NOT NULL DEFAULT 0,
    "day_alerted" INTEGER NOT NULL DEFAULT 0,
    "day_alerted_start" DATE,
    "month_alerted" INTEGER NOT NULL DEFAULT 0,
    "month_alerted_start" DATE,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "budgets_pkey" PRIMARY KEY ("id")
);
-- CreateTable
CREATE TABLE "budget_holds" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "budget_ids" TEXT[],
    "amount_micros" BIGINT NOT NULL,
    "charged_micros" BIGINT,
    "day" DATE NOT NULL,
    "month" DATE NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'held',
    "payment_id" TEXT,
    "rail" TEXT,
    "operation_key" TEXT NOT NULL,
    "lease_until" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMP(3),
    CONSTRAINT "budget_holds_pkey" PRIMARY KEY ("id")
);
-- CreateIndex
CREATE INDEX "budgets_human_id_idx" ON "budgets"("human_id");
-- CreateIndex
CREATE UNIQUE INDEX "budgets_seller_id_scope_subject_key" ON "budgets"("seller_id", "scope", "subject");
-- CreateIndex
CREATE INDEX "budget_holds_state_lease_until_idx" ON "budget_holds"("state", "lease_until");
-- CreateIndex
CREATE INDEX "budget_holds_human_id_seller_id_created_at_idx" ON "budget_holds"("human_id", "seller_id", "created_at");
-- CreateIndex
CREATE INDEX "budget_holds_credential_id_created_at_idx" ON "budget_holds"("credential_id", "created_at");
