-- Issue 25: how a paid call came, so the console can tell HTTP calls from MCP tool calls. Every existing row came over
-- HTTP (MCP tool calls were not paid before this).
ALTER TABLE "payments" ADD COLUMN "transport" TEXT NOT NULL DEFAULT 'http';
ALTER TABLE "payments" ADD CONSTRAINT "payments_transport_check" CHECK ("transport" IN ('http', 'mcp'));

-- The list's transport filter and the split by transport stay index-only scans: the same key, covering transport too.
DROP INDEX "payments_seller_id_created_at_idx";
CREATE INDEX "payments_seller_id_created_at_idx" ON "payments"("seller_id", "created_at" DESC)
  INCLUDE ("id", "status", "rail", "operation_key", "from_challenge", "payer", "failure_reason", "transport");
