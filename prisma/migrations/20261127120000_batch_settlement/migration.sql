-- The x402-batch rail (server/payments/rails/x402-batch): payment channels and the on-chain transactions for them.
CREATE TABLE "batch_channels" (
    "id" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "payer_authorizer" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "receiver_authorizer" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "withdraw_delay" INTEGER NOT NULL,
    "salt" TEXT NOT NULL,
    "balance_micros" BIGINT NOT NULL,
    "withdraw_requested_at" TIMESTAMP(3),
    "claimed_micros" BIGINT NOT NULL,
    "charged_micros" BIGINT NOT NULL,
    "released_micros" BIGINT NOT NULL DEFAULT 0,
    "signed_max_micros" BIGINT NOT NULL,
    "signature" TEXT,
    "vouchers" INTEGER NOT NULL DEFAULT 0,
    "claimed_vouchers" INTEGER NOT NULL DEFAULT 0,
    "unclaimed_since" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "batch_channels_pkey" PRIMARY KEY ("id"),
    -- A claim never takes more than the payer signed: nothing is ever charged beyond the latest voucher's ceiling.
    CONSTRAINT "batch_channels_charged_within_voucher" CHECK ("charged_micros" <= "signed_max_micros"),
    CONSTRAINT "batch_channels_amounts_nonnegative" CHECK ("charged_micros" >= 0 AND "released_micros" >= 0 AND "released_micros" <= "charged_micros")
);

-- Every voucher updates its channel's row: room on the page keeps those updates HOT (no index touched, less WAL).
ALTER TABLE "batch_channels" SET (fillfactor = 70);

CREATE TABLE "batch_transactions" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "amount_micros" BIGINT NOT NULL,
    "transaction" TEXT,
    "gas_used" BIGINT,
    "gas_cost_wei" DECIMAL(78,0),
    "lease_until" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "confirmed_at" TIMESTAMP(3),

    CONSTRAINT "batch_transactions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "batch_transactions_kind_created_at_idx" ON "batch_transactions"("kind", "created_at");
-- One claim in flight across every instance: the pending row is the claim pass's lease.
CREATE UNIQUE INDEX "batch_transactions_one_pending_claim" ON "batch_transactions"("kind") WHERE "kind" = 'claim' AND "status" = 'pending';

CREATE TABLE "batch_chain_cursor" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "last_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "batch_chain_cursor_pkey" PRIMARY KEY ("id")
);
