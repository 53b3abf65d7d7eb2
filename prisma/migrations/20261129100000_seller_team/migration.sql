-- Issue 38: the team of a seller. Every existing console user is an owner, an invited one may be a viewer, who reads only
-- (the tRPC tiers refuse the changes of a viewer). Invitations are single-use links kept as the SHA-256 of their token.

-- AlterTable
ALTER TABLE "seller_users" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'owner';
ALTER TABLE "seller_users" ADD CONSTRAINT "seller_users_role_check" CHECK ("role" IN ('owner', 'viewer'));

-- CreateTable
CREATE TABLE "seller_invites" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "seller_invites_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "seller_invites_role_check" CHECK ("role" IN ('owner', 'viewer'))
);

-- CreateIndex
CREATE UNIQUE INDEX "seller_invites_token_hash_key" ON "seller_invites"("token_hash");

-- CreateIndex
CREATE INDEX "seller_invites_seller_id_created_at_idx" ON "seller_invites"("seller_id", "created_at");

-- AddForeignKey
ALTER TABLE "seller_invites" ADD CONSTRAINT "seller_invites_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seller_invites" ADD CONSTRAINT "seller_invites_invited_by_fkey" FOREIGN KEY ("invited_by") REFERENCES "seller_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
