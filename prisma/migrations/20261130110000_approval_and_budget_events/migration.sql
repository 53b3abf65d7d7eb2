-- Issue 36: the approvals' events for the seller (docs/events.md), written in the change's transaction whatever code
-- path made it: approval.requested (a pending approval inserted), approval.approved, approval.declined, approval.expired
-- (its status left pending). budget.exceeded is written by the refusal itself (server/budgets/budgets.queries.ts,
-- through emit_event, so its webhooks are fanned out alike): a refusal changes no row a trigger could watch. It is sent
-- once per budget, limit and window (`budgets.exceeded_notice`, claimed by a guarded update as the alerts are), so an
-- agent hammering a spent budget does not flood the seller's endpoints.

ALTER TABLE "budgets" ADD COLUMN "exceeded_notice" TEXT;
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- The approval as its events carry it: the call held (amount, threshold, request), its state and times, and the agent
-- block of entitlements (as claim.completed and the credential events carry it).
CREATE FUNCTION emit_approval_event(p_id text, p_type text) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(a.seller_id, p_type, a.id,
    jsonb_build_object(''approval'', jsonb_build_object(''id'', a.id, ''status'', a.status, ''amountMicros'', a.amount_micros::text,
        ''thresholdMicros'', a.threshold_micros::text, ''method'', a.method, ''path'', a.path, ''query'', a.query,
        ''operationKey'', a.operation_key, ''expiresAt'', a.expires_at, ''decidedAt'', a.decided_at, ''createdAt'', a.created_at),
      ''agent'', jsonb_build_object(''id'', c.id, ''type'', c.kind, ''claimed'', c.status = ''claimed'',
        ''human'', CASE WHEN h.id IS NULL THEN NULL ELSE jsonb_build_object(''id'', h.id, ''email'', h.email) END)))
  FROM approvals a JOIN agent_credentials c ON c.id = a.credential_id LEFT JOIN humans h ON h.id = c.human_id
  WHERE a.id = p_id\x3B
END\x3B
';

CREATE FUNCTION approvals_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM emit_approval_event(NEW.id, ''approval.requested'')\x3B
  ELSE
    PERFORM emit_approval_event(NEW.id, ''approval.'' || NEW.status)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER approvals_emit_requested AFTER INSERT ON "approvals"
  FOR EACH ROW WHEN (NEW.status = 'pending')
  EXECUTE FUNCTION approvals_emit_event();

-- The person's answer, or the lapse of a pending one. Spending an approved one (used) and giving it back are not events.
CREATE TRIGGER approvals_emit_decided AFTER UPDATE OF "status" ON "approvals"
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IN ('approved', 'declined', 'expired'))
  EXECUTE FUNCTION approvals_emit_event();
