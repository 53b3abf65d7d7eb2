-- Issue 36: approval above a threshold (server/approvals). A person sets a threshold for one credential they claimed or
-- for all of them at a storefront. A paid call over it is held as an approval row until they approve or decline it on
-- a page, and the agent's retry of the same request consumes the approved row once. Threshold changes are announced on
-- channel human_controls_changed (`c:<credential>` or `h:<human>`), as freezes are, so every instance's cache of what
-- the paid path checks drops them at commit.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- CreateTable
CREATE TABLE "approval_thresholds" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "credential_id" TEXT,
    "scope" TEXT NOT NULL,
    "threshold_micros" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_thresholds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approval_thresholds_not_negative" CHECK ("threshold_micros" >= 0),
    -- `scope`: the credential's id, or '*' for every credential of the person here (credential_id null).
    CONSTRAINT "approval_thresholds_scope" CHECK ("scope" = coalesce("credential_id", '*'))
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "binding" TEXT NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "threshold_micros" BIGINT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "operation_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "decided_at" TIMESTAMP(3),
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approvals_status" CHECK ("status" IN ('pending', 'approved', 'declined', 'expired', 'used'))
);

-- CreateIndex
-- One threshold per person and scope at a storefront (a credential's own, and one for all of them). It also serves the
-- look-up of the two that apply to a credential, read with its controls.
CREATE UNIQUE INDEX "approval_thresholds_seller_id_human_id_scope_key" ON "approval_thresholds"("seller_id", "human_id", "scope");
-- Serves: the retry's look-up of an approval for the same request by the same credential, newest first.
CREATE INDEX "approvals_credential_id_binding_created_at_idx" ON "approvals"("credential_id", "binding", "created_at" DESC);
-- Serves: the person's list of their approvals at a storefront, newest first.
CREATE INDEX "approvals_human_id_seller_id_created_at_idx" ON "approvals"("human_id", "seller_id", "created_at" DESC);
-- At most one pending approval per request and amount: concurrent held calls share it (and one email).
CREATE UNIQUE INDEX "approvals_one_pending_key" ON "approvals"("credential_id", "binding", "amount_micros") WHERE "status" = 'pending';

-- AddForeignKey
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_human_id_fkey" FOREIGN KEY ("human_id") REFERENCES "humans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION notify_approval_threshold() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  r approval_thresholds%ROWTYPE\x3B
BEGIN
  IF TG_OP = ''DELETE'' THEN r := OLD\x3B ELSE r := NEW\x3B END IF\x3B
  IF r.credential_id IS NULL THEN
    PERFORM pg_notify(''human_controls_changed'', ''h:'' || r.human_id)\x3B
  ELSE
    PERFORM pg_notify(''human_controls_changed'', ''c:'' || r.credential_id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER approval_thresholds_notify AFTER INSERT OR UPDATE OR DELETE ON "approval_thresholds"
  FOR EACH ROW EXECUTE FUNCTION notify_approval_threshold();
