-- Payments domain: units reported by the upstream (svc-usage), kept on the outbox row so a settlement
-- finished by the reconciler writes the same ledger row the live path would have.
ALTER TABLE "settlements" ADD COLUMN "units" INTEGER NOT NULL DEFAULT 1;
