-- One trigger function for "a row changed: tell every instance", instead of one copy per table: notify_row(channel,
-- prefix, column) sends `<prefix><the row's column>` on `<channel>` (the old row on DELETE, the new one otherwise).
-- The triggers that used a copy now call it with their own arguments, and what each sends, and when, is unchanged.
-- Budgets had two triggers on the same changes (a budget's existence, for the controls' cache, and its limits, for
-- leases): they become one, sending what both sent.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

CREATE FUNCTION notify_row() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  r jsonb\x3B
BEGIN
  IF TG_OP = ''DELETE'' THEN r := to_jsonb(OLD)\x3B ELSE r := to_jsonb(NEW)\x3B END IF\x3B
  PERFORM pg_notify(TG_ARGV[0], TG_ARGV[1] || (r ->> TG_ARGV[2]))\x3B
  RETURN NULL\x3B
END\x3B
';

DROP TRIGGER sellers_notify_changed ON "sellers";
CREATE TRIGGER sellers_notify_changed
  AFTER UPDATE OR DELETE ON "sellers"
  FOR EACH ROW EXECUTE FUNCTION notify_row('catalog_changed', '', 'id');
DROP FUNCTION notify_seller_changed();

DROP TRIGGER credential_freezes_notify ON "credential_freezes";
CREATE TRIGGER credential_freezes_notify AFTER INSERT OR DELETE ON "credential_freezes"
  FOR EACH ROW EXECUTE FUNCTION notify_row('human_controls_changed', 'c:', 'credential_id');
DROP FUNCTION notify_credential_controls();

DROP TRIGGER agent_credentials_notify_revoked ON "agent_credentials";
CREATE TRIGGER agent_credentials_notify_revoked AFTER UPDATE OF "revoked_at" ON "agent_credentials"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
  EXECUTE FUNCTION notify_row('human_controls_changed', 'c:', 'id');
DROP FUNCTION notify_credential_revoked();

DROP TRIGGER agent_credentials_notify_claimed ON "agent_credentials";
CREATE TRIGGER agent_credentials_notify_claimed AFTER UPDATE OF "status", "human_id" ON "agent_credentials"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.human_id IS DISTINCT FROM NEW.human_id)
  EXECUTE FUNCTION notify_row('human_controls_changed', 'c:', 'id');
DROP FUNCTION notify_credential_claimed();

DROP TRIGGER wallet_caps_notify ON "wallet_caps";
CREATE TRIGGER wallet_caps_notify AFTER INSERT OR UPDATE OR DELETE ON "wallet_caps"
  FOR EACH ROW EXECUTE FUNCTION notify_row('human_controls_changed', 'w:', 'seller_id');
DROP FUNCTION notify_wallet_caps();

DROP TRIGGER seller_settings_notify ON "seller_settings";
CREATE TRIGGER seller_settings_notify AFTER INSERT OR UPDATE OF "credit_lease_calls", "credit_lease_ms" ON "seller_settings"
  FOR EACH ROW EXECUTE FUNCTION notify_row('catalog_changed', '', 'seller_id');
DROP FUNCTION seller_settings_notify();

-- Budgets: the person on every change of a budget's existence or limits (the counters a call moves are not a change),
-- the credential as well when a credential's budget is made or removed. One trigger instead of two.
DROP TRIGGER budgets_notify ON "budgets";
DROP TRIGGER budgets_notify_exists ON "budgets";
DROP FUNCTION budgets_notify();
DROP FUNCTION notify_budget_exists();
CREATE FUNCTION notify_budget_changed() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  r budgets%ROWTYPE\x3B
BEGIN
  IF TG_OP = ''DELETE'' THEN r := OLD\x3B ELSE r := NEW\x3B END IF\x3B
  PERFORM pg_notify(''human_controls_changed'', ''h:'' || r.human_id)\x3B
  IF TG_OP <> ''UPDATE'' AND r.scope <> ''person'' THEN
    PERFORM pg_notify(''human_controls_changed'', ''c:'' || r.subject)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';
CREATE TRIGGER budgets_notify AFTER INSERT OR DELETE OR UPDATE OF "per_call_micros", "per_day_micros", "per_month_micros" ON "budgets"
  FOR EACH ROW EXECUTE FUNCTION notify_budget_changed();
