-- Issue 22, stateless challenges: a 402 writes no payments row, and the funnel's "challenges issued" is counted per seller,
-- UTC day of issue and operation, added to by each instance's periodic flush (one upsert).
CREATE TABLE "challenge_counts" (
    "seller_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "operation_key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "challenge_counts_pkey" PRIMARY KEY ("seller_id","day","operation_key")
);

ALTER TABLE "challenge_counts" ADD CONSTRAINT "challenge_counts_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
