-- Issue 36: whether a budget applies to a credential is read with its controls and cached per instance
-- (server/controls/credential-controls.ts), so a call by a credential without a budget runs no budget statement. The
-- cache is kept true by channel human_controls_changed, as for freezes and thresholds: a budget made or removed
-- announces its credential (`c:`) or, for all of a person's credentials, its person (`h:`), and a claim (a credential
-- gaining its person, or changing state) announces the credential. A budget's limits changing does not change whether
-- one applies, and its counters move on every paid call: neither is announced.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

CREATE FUNCTION notify_budget_exists() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  r budgets%ROWTYPE\x3B
BEGIN
  IF TG_OP = ''DELETE'' THEN r := OLD\x3B ELSE r := NEW\x3B END IF\x3B
  IF r.scope = ''person'' THEN
    PERFORM pg_notify(''human_controls_changed'', ''h:'' || r.subject)\x3B
  ELSE
    PERFORM pg_notify(''human_controls_changed'', ''c:'' || r.subject)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER budgets_notify_exists AFTER INSERT OR DELETE ON "budgets"
  FOR EACH ROW EXECUTE FUNCTION notify_budget_exists();

CREATE FUNCTION notify_credential_claimed() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''human_controls_changed'', ''c:'' || NEW.id)\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER agent_credentials_notify_claimed AFTER UPDATE OF "status", "human_id" ON "agent_credentials"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.human_id IS DISTINCT FROM NEW.human_id)
  EXECUTE FUNCTION notify_credential_claimed();
