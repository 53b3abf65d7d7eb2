-- Issue 33: a replay of a paid request re-delivers the answer that was paid for (its bytes, kept here for the replay
-- window) instead of running the upstream again, bounded per answer and per seller.

-- CreateTable
CREATE TABLE "delivered_answers" (
    "payment_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '[]',
    "body" BYTEA,
    "size_bytes" INTEGER NOT NULL DEFAULT 0,
    "not_kept" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "delivered_answers_pkey" PRIMARY KEY ("payment_id")
);

-- CreateTable
CREATE TABLE "delivered_answer_usage" (
    "seller_id" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "delivered_answer_usage_pkey" PRIMARY KEY ("seller_id")
);

-- CreateIndex
CREATE INDEX "delivered_answers_expires_at_idx" ON "delivered_answers"("expires_at");

-- AddForeignKey
ALTER TABLE "delivered_answers" ADD CONSTRAINT "delivered_answers_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivered_answer_usage" ADD CONSTRAINT "delivered_answer_usage_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
