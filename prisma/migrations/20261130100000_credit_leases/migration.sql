-- Issue 40: plan credit leased to instances (server/payments/rails/credits/README.md), bounded by the seller's
-- settings, and the notices that drop leases on every instance at once.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- AlterTable
ALTER TABLE "seller_settings" ADD COLUMN "credit_lease_calls" INTEGER,
ADD COLUMN "credit_lease_ms" INTEGER;

-- CreateTable
CREATE TABLE "credit_leases" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "human_id" TEXT,
    "meter_key" TEXT NOT NULL,
    "grant_id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "spent_micros" BIGINT NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "returned_at" TIMESTAMP(3),

    CONSTRAINT "credit_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credit_leases_grant_id_returned_at_idx" ON "credit_leases"("grant_id", "returned_at");

-- CreateIndex
CREATE INDEX "credit_leases_returned_at_expires_at_idx" ON "credit_leases"("returned_at", "expires_at");

-- What a lease spent never passes what it took (the batches that record its calls are guarded by it too).
ALTER TABLE "credit_leases" ADD CONSTRAINT "credit_leases_spent_within" CHECK ("spent_micros" >= 0 AND "spent_micros" <= "amount_micros");

-- A budget set, changed or removed reaches every instance at once, as a freeze or a threshold does: the person's
-- leases are dropped (and the controls' cache forgets the person, which costs one read).
CREATE FUNCTION budgets_notify() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    PERFORM pg_notify(''human_controls_changed'', ''h:'' || OLD.human_id)\x3B
  ELSE
    PERFORM pg_notify(''human_controls_changed'', ''h:'' || NEW.human_id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

-- Only a change of the limits: the counts a call moves are not a change of the person's settings.
CREATE TRIGGER budgets_notify AFTER INSERT OR DELETE OR UPDATE OF "per_call_micros", "per_day_micros", "per_month_micros" ON "budgets"
  FOR EACH ROW EXECUTE FUNCTION budgets_notify();

-- The seller's lease settings announced with the catalog's notice (every instance drops the seller's leases).
CREATE FUNCTION seller_settings_notify() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''catalog_changed'', NEW.seller_id)\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER seller_settings_notify AFTER INSERT OR UPDATE OF "credit_lease_calls", "credit_lease_ms" ON "seller_settings"
  FOR EACH ROW EXECUTE FUNCTION seller_settings_notify();
