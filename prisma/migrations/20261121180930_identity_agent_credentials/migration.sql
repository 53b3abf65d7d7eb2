-- Agent identity (server/identity): credentials, humans, claim attempts, refresh tokens, signing keys,
-- trusted ID-JAG providers, seen jtis, human sign-in codes and the demo outbox.

-- CreateTable
CREATE TABLE "humans" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMP(3),

    CONSTRAINT "humans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "human_issuer_links" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "human_issuer_links_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateTable
CREATE TABLE "agent_credentials" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "login_hint" TEXT,
    "human_id" TEXT,
    "claim_token_hash" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "expires_at" TIMESTAMP(3),
    "pending_issuer" TEXT,
    "pending_subject" TEXT,
    "claimed_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_attempts" (
    "id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "link_token_hash" TEXT NOT NULL,
    "login_hint" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "human_id" TEXT,
    "user_code_hash" TEXT,
    "user_code_expires_at" TIMESTAMP(3),
    "failed_codes" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "confirmed_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity_signing_keys" (
    "kid" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateTable
CREATE TABLE "trusted_identity_providers" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "jwks_uri" TEXT,
    "jwks" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trusted_identity_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "used_assertion_jtis" (
    "issuer" TEXT NOT NULL,
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "used_assertion_jtis_pkey" PRIMARY KEY ("issuer","jti")
);

-- CreateTable
CREATE TABLE "human_sign_in_codes" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "human_sign_in_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "humans_email_key" ON "humans"("email");

-- CreateIndex
CREATE INDEX "human_issuer_links_human_id_idx" ON "human_issuer_links"("human_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_credentials_claim_token_hash_key" ON "agent_credentials"("claim_token_hash");

-- CreateIndex
CREATE INDEX "agent_credentials_human_id_seller_id_idx" ON "agent_credentials"("human_id", "seller_id");

-- CreateIndex
CREATE INDEX "agent_credentials_seller_id_created_at_idx" ON "agent_credentials"("seller_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "claim_attempts_link_token_hash_key" ON "claim_attempts"("link_token_hash");

-- CreateIndex
CREATE INDEX "claim_attempts_credential_id_created_at_idx" ON "claim_attempts"("credential_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_tokens_credential_id_status_idx" ON "refresh_tokens"("credential_id", "status");

-- CreateIndex
CREATE INDEX "identity_signing_keys_created_at_idx" ON "identity_signing_keys"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "trusted_identity_providers_seller_id_issuer_key" ON "trusted_identity_providers"("seller_id", "issuer");

-- CreateIndex
CREATE INDEX "used_assertion_jtis_expires_at_idx" ON "used_assertion_jtis"("expires_at");

-- CreateIndex
CREATE INDEX "human_sign_in_codes_email_created_at_idx" ON "human_sign_in_codes"("email", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outbox_messages_created_at_idx" ON "outbox_messages"("created_at" DESC);

-- AddForeignKey
ALTER TABLE "human_issuer_links" ADD CONSTRAINT "human_issuer_links_human_id_fkey" FOREIGN KEY ("human_id") REFERENCES "humans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_credentials" ADD CONSTRAINT "agent_credentials_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_credentials" ADD CONSTRAINT "agent_credentials_human_id_fkey" FOREIGN KEY ("human_id") REFERENCES "humans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_attempts" ADD CONSTRAINT "claim_attempts_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trusted_identity_providers" ADD CONSTRAINT "trusted_identity_providers_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
