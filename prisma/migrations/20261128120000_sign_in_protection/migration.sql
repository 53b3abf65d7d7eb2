-- Issue 33: sign-in that resists guessing (failures per account and per address, shared by every instance), sessions
-- that sign-out ends on the server (a version per person), and seller password resets by email.

-- AlterTable
ALTER TABLE "seller_users" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;
-- AlterTable
ALTER TABLE "humans" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;
-- CreateTable
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key")
);
-- CreateTable
CREATE TABLE "password_resets" (
    "id" TEXT NOT NULL,
    "seller_user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("id")
);
-- CreateIndex
CREATE INDEX "sign_in_failures_updated_at_idx" ON "sign_in_failures"("updated_at");
-- CreateIndex
CREATE UNIQUE INDEX "password_resets_token_hash_key" ON "password_resets"("token_hash");
-- CreateIndex
CREATE INDEX "password_resets_seller_user_id_created_at_idx" ON "password_resets"("seller_user_id", "created_at");
-- AddForeignKey
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_seller_user_id_fkey" FOREIGN KEY ("seller_user_id") REFERENCES "seller_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
