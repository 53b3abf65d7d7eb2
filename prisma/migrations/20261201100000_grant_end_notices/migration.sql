-- Issue 40: a grant that ends early (its plan purchase refunded: server/billing/billing.queries.ts
-- `revokePurchasedCredit`) is announced at commit, so every instance drops the leases it holds on it at once instead of
-- spending them until they end (server/payments/rails/credits/README.md "Leased credit").
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

CREATE FUNCTION credit_grants_ended_notify() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''human_controls_changed'', ''g:'' || NEW.id)\x3B
  RETURN NULL\x3B
END\x3B
';

-- Only an end brought forward: draws never set expires_at, and a top-up only pushes it later.
CREATE TRIGGER credit_grants_ended_notify AFTER UPDATE OF "expires_at" ON "credit_grants"
  FOR EACH ROW WHEN (NEW."expires_at" < OLD."expires_at") EXECUTE FUNCTION credit_grants_ended_notify();
