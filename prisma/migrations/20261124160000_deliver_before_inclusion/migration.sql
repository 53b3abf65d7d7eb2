-- Issue 24: a wallet-paid answer may go out before its settlement is included on chain, within a per-payer cap.

-- AlterTable
ALTER TABLE "seller_settings" ADD COLUMN "unsettled_cap_micros" BIGINT;

-- AlterTable
ALTER TABLE "settlements" ADD COLUMN "delivered_first" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "payer_exposures" (
    "seller_id" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "outstanding_micros" BIGINT NOT NULL DEFAULT 0,
    "unpaid_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payer_exposures_pkey" PRIMARY KEY ("seller_id","payer")
);
