-- Issue 36: a person freezes a credential they claimed (reversible) or revokes it for good (agent_credentials.revoked_at,
-- set by the person's controls or by RFC 7009 /oauth2/revoke). Both take effect on every instance at once: each instance
-- caches a credential's controls (server/controls/credential-controls.ts) and drops them when this channel says so, at
-- commit. Events credential.frozen, credential.unfrozen and credential.revoked are written here, in the change's
-- transaction, whatever code path made it.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- CreateTable
CREATE TABLE "credential_freezes" (
    "credential_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "frozen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credential_freezes_pkey" PRIMARY KEY ("credential_id")
);

-- AddForeignKey
ALTER TABLE "credential_freezes" ADD CONSTRAINT "credential_freezes_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "agent_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every change of what the paid path checks of a credential, on one channel: `c:<credential id>` (its freeze, its
-- revocation, its own approval threshold), `h:<human id>` (a threshold for all of a person's credentials), `w:<seller id>`
-- (a wallet's caps at a seller). Delivered at commit to every instance that LISTENs.
CREATE FUNCTION notify_credential_controls() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    PERFORM pg_notify(''human_controls_changed'', ''c:'' || OLD.credential_id)\x3B
  ELSE
    PERFORM pg_notify(''human_controls_changed'', ''c:'' || NEW.credential_id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER credential_freezes_notify AFTER INSERT OR DELETE ON "credential_freezes"
  FOR EACH ROW EXECUTE FUNCTION notify_credential_controls();

CREATE FUNCTION notify_credential_revoked() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''human_controls_changed'', ''c:'' || NEW.id)\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER agent_credentials_notify_revoked AFTER UPDATE OF "revoked_at" ON "agent_credentials"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
  EXECUTE FUNCTION notify_credential_revoked();

-- ---------- events: credential.frozen, credential.unfrozen, credential.revoked ----------

-- The agent block of entitlements (as claim.completed carries it), the moment, and who acted: `via` is `person` (the
-- person's controls) or `token_revocation` (RFC 7009 /oauth2/revoke, by the agent holding a token). A revocation's
-- writer says which in the transaction's setting storefront.revoked_via (absent: person).
CREATE FUNCTION emit_credential_control_event(p_credential text, p_type text, p_at timestamp, p_via text) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(c.seller_id, p_type, c.id,
    jsonb_build_object(''agent'', jsonb_build_object(''id'', c.id, ''type'', c.kind, ''claimed'', c.status = ''claimed'',
        ''human'', CASE WHEN h.id IS NULL THEN NULL ELSE jsonb_build_object(''id'', h.id, ''email'', h.email) END),
      ''at'', p_at, ''via'', p_via))
  FROM agent_credentials c LEFT JOIN humans h ON h.id = c.human_id
  WHERE c.id = p_credential\x3B
END\x3B
';

CREATE FUNCTION credential_freezes_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM emit_credential_control_event(NEW.credential_id, ''credential.frozen'', NEW.frozen_at, ''person'')\x3B
  ELSE
    PERFORM emit_credential_control_event(OLD.credential_id, ''credential.unfrozen'', (clock_timestamp() AT TIME ZONE ''UTC'')::timestamp(3), ''person'')\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER credential_freezes_emit_event AFTER INSERT OR DELETE ON "credential_freezes"
  FOR EACH ROW EXECUTE FUNCTION credential_freezes_emit_event();

CREATE FUNCTION agent_credentials_emit_revoked() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_credential_control_event(NEW.id, ''credential.revoked'', NEW.revoked_at,
    coalesce(nullif(current_setting(''storefront.revoked_via'', true), ''''), ''person''))\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER agent_credentials_emit_revoked AFTER UPDATE OF "revoked_at" ON "agent_credentials"
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION agent_credentials_emit_revoked();
