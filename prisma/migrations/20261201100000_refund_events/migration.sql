-- Issue 38: a partial refund is reported where a refund is. Like Stripe's `charge.refunded` (sent for every refund,
-- partial ones included, its charge carrying `amount_refunded`), `payment.refunded` is written once per refund: by the
-- ledger's refund row (one per refund, numbered by `seq`), no longer by the payment's move to refunded, which only the
-- last of several partial refunds makes. The payment's snapshot gains the sum refunded so far and each refund's ledger
-- row, so the event's object says `amount_refunded` and `refunds` as GET /payments/{id} does. Quoted as
-- 20261124130000_events_webhooks quotes its functions.
CREATE OR REPLACE FUNCTION event_payment_snapshot(p payments) RETURNS jsonb LANGUAGE plpgsql STABLE AS E'
BEGIN
  RETURN jsonb_build_object(
    ''payment'', jsonb_build_object(
      ''id'', p.id, ''status'', p.status, ''rail'', p.rail, ''amountMicros'', p.amount_micros::text, ''currency'', p.currency,
      ''method'', p.method, ''path'', p.path, ''query'', p.query, ''operationKey'', p.operation_key, ''meterKey'', p.meter_key,
      ''payer'', p.payer, ''transaction'', p.transaction, ''failureReason'', p.failure_reason, ''credentialId'', p.credential_id,
      ''expiresAt'', p.expires_at, ''createdAt'', p.created_at, ''settledAt'', p.settled_at,
      ''verifiedAt'', p.verified_at, ''fromChallenge'', p.from_challenge, ''idempotencyKeyed'', coalesce(p.lock_key LIKE ''%:idem:%'', false),
      ''refundedMicros'', p.refunded_micros::text),
    ''settlement'', (SELECT jsonb_build_object(''status'', s.status, ''deliveredFirst'', s.delivered_first) FROM settlements s WHERE s.payment_id = p.id),
    ''purchase'', EXISTS (SELECT 1 FROM plan_purchases pp WHERE pp.payment_id = p.id),
    ''refund'', CASE WHEN p.status = ''refunded'' THEN
      (SELECT jsonb_build_object(''amountMicros'', p.refunded_micros::text, ''transaction'', l.transaction, ''logIndex'', l.log_index, ''createdAt'', l.created_at)
       FROM ledger_entries l WHERE l.payment_id = p.id AND l.kind = ''refund'' ORDER BY l.seq DESC LIMIT 1) END,
    -- Read only for a payment something was refunded of: a settled payment''s snapshot reads no more than before.
    ''refunds'', CASE WHEN p.refunded_micros > 0 THEN
      (SELECT coalesce(jsonb_agg(jsonb_build_object(''amountMicros'', l.amount_micros::text, ''transaction'', l.transaction, ''logIndex'', l.log_index, ''createdAt'', l.created_at)
         ORDER BY l.seq), ''[]''::jsonb)
       FROM ledger_entries l WHERE l.payment_id = p.id AND l.kind = ''refund'') ELSE ''[]''::jsonb END,
    ''card'', CASE WHEN p.rail = ''card'' THEN
      (SELECT jsonb_build_object(''flow'', c.flow, ''checkoutStatus'', c.checkout_status, ''cardBrand'', c.card_brand, ''cardLast4'', c.card_last4,
         ''lastErrorCode'', c.last_error_code, ''lastDeclineCode'', c.last_decline_code, ''lastErrorMessage'', c.last_error_message,
         ''refundStatus'', c.refund_status, ''refundCause'', c.refund_cause, ''refundError'', c.refund_error,
         ''refundRequestedAt'', c.refund_requested_at, ''refundedAt'', c.refunded_at)
       FROM card_payments c WHERE c.payment_id = p.id) END)\x3B
END\x3B
';

-- The state trigger keeps settled, released and failed, and refunded is written by the ledger now (below).
DROP TRIGGER "payments_emit_event" ON "payments";
CREATE CONSTRAINT TRIGGER payments_emit_event AFTER UPDATE OF "status" ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.rail IS DISTINCT FROM 'credits'
        AND (NEW.status IN ('released', 'failed') OR (NEW.status IN ('settled', 'consumed') AND OLD.status NOT IN ('settled', 'consumed'))))
  EXECUTE FUNCTION payments_emit_event();

-- One payment.refunded per refund, at commit: the payment, its refunds and its card row as the refund's transaction
-- left them. Every path to a refund writes this row (the seller's wallet refund, each card refund, a failed delivery's).
CREATE FUNCTION ledger_entries_emit_refund() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(p.seller_id, ''payment.refunded'', p.id, event_payment_snapshot(p))
  FROM payments p WHERE p.id = NEW.payment_id AND p.rail IS DISTINCT FROM ''credits''\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE CONSTRAINT TRIGGER ledger_entries_emit_refund AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.kind = 'refund' AND NEW.rail IS DISTINCT FROM 'credits')
  EXECUTE FUNCTION ledger_entries_emit_refund();
