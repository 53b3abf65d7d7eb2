-- Issue 38: a TOTP second factor for seller console accounts: the sealed secret with the time step of the last code
-- accepted, and one-time recovery codes kept as their HMAC.

-- CreateTable
CREATE TABLE "seller_two_step" (
    "seller_user_id" TEXT NOT NULL,
    "secret_sealed" TEXT NOT NULL,
    "enabled_at" TIMESTAMP(3),
    "last_used_step" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "seller_two_step_pkey" PRIMARY KEY ("seller_user_id")
);
-- CreateTable
CREATE TABLE "seller_recovery_codes" (
    "id" TEXT NOT NULL,
    "seller_user_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "seller_recovery_codes_pkey" PRIMARY KEY ("id")
);
-- CreateIndex
CREATE UNIQUE INDEX "seller_recovery_codes_code_hash_key" ON "seller_recovery_codes"("code_hash");
-- CreateIndex
CREATE INDEX "seller_recovery_codes_seller_user_id_idx" ON "seller_recovery_codes"("seller_user_id");
-- AddForeignKey
ALTER TABLE "seller_two_step" ADD CONSTRAINT "seller_two_step_seller_user_id_fkey" FOREIGN KEY ("seller_user_id") REFERENCES "seller_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- AddForeignKey
ALTER TABLE "seller_recovery_codes" ADD CONSTRAINT "seller_recovery_codes_seller_user_id_fkey" FOREIGN KEY ("seller_user_id") REFERENCES "seller_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
