-- The grant-end notice (20261201100000_grant_end_notices) was one more copy of the row-notice function: its trigger
-- now calls the shared notify_row (20261130130000_one_row_notice) with the same channel, prefix and column, and keeps
-- its WHEN clause, so what it sends, and when, is unchanged. The copy is dropped.

DROP TRIGGER credit_grants_ended_notify ON "credit_grants";
-- Only an end brought forward: draws never set expires_at, and a top-up only pushes it later.
CREATE TRIGGER credit_grants_ended_notify AFTER UPDATE OF "expires_at" ON "credit_grants"
  FOR EACH ROW WHEN (NEW."expires_at" < OLD."expires_at")
  EXECUTE FUNCTION notify_row('human_controls_changed', 'g:', 'id');
DROP FUNCTION credit_grants_ended_notify();
