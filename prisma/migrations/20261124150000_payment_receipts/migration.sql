-- The signed receipt of a charged answer (issue 23): GET /payments/{id}/receipt.
ALTER TABLE "payments" ADD COLUMN "receipt" TEXT;
