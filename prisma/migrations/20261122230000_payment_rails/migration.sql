-- Payment rails (issue 12): one payments table for every rail. The x402-only lock (unique asset, payer, nonce)
-- becomes a rail-neutral `lock_key`, the x402 proof and version become `rail_data`, `rail` is null while a payment
-- is an unpaid challenge (any rail of the 402 may answer it), and the wallet-only columns become nullable.

ALTER TABLE "payments" ALTER COLUMN "rail" DROP NOT NULL, ALTER COLUMN "rail" DROP DEFAULT;
UPDATE "payments" SET "rail" = NULL WHERE "status" = 'challenged';

ALTER TABLE "payments" ALTER COLUMN "network" DROP NOT NULL, ALTER COLUMN "asset" DROP NOT NULL, ALTER COLUMN "pay_to" DROP NOT NULL;

ALTER TABLE "payments" ADD COLUMN "lock_key" TEXT, ADD COLUMN "rail_data" JSONB;
-- Payer and nonce were stored lower case. The key also names the chain and the token.
UPDATE "payments" SET "lock_key" = 'eip3009:' || "network" || ':' || lower("asset") || ':' || "payer" || ':' || "nonce"
  WHERE "nonce" IS NOT NULL AND "payer" IS NOT NULL;
UPDATE "payments" SET "rail_data" = "proof" WHERE "proof" IS NOT NULL;

DROP INDEX "payments_asset_payer_nonce_key";
ALTER TABLE "payments" DROP COLUMN "nonce", DROP COLUMN "proof", DROP COLUMN "x402_version";
CREATE UNIQUE INDEX "payments_lock_key_key" ON "payments"("lock_key");
