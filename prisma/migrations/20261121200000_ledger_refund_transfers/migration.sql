-- Payments domain: refunds recorded from the console (server/payments/refund.ts). A refund ledger row names the
-- on-chain transfer it was verified against: the transaction hash and the Transfer log's index in it.

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN "transaction" TEXT,
ADD COLUMN "log_index" INTEGER;

-- One on-chain transfer refunds at most one payment, however many requests race for it. NULLs (charges) never
-- collide.
-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_transaction_log_index_key" ON "ledger_entries"("transaction", "log_index");

-- A transfer is named by both or neither: a hash without its log index could not be checked for reuse.
ALTER TABLE "ledger_entries"
  ADD CONSTRAINT "ledger_entries_transfer_complete" CHECK (("transaction" IS NULL) = ("log_index" IS NULL));
