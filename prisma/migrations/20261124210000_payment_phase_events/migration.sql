-- Issue 23: one status vocabulary. A payment event's object carries `phase` and `next` as GET /payments/{id} does
-- (server/payments/payment-phase.ts derives them), so the snapshot a payment event is rendered from also holds what
-- the phase needs beyond the row's state: its settlement outbox row (pending vs settled, delivered before inclusion),
-- whether it bought plan credit, whether it answered a challenge or a client's Idempotency-Key (its proof replays) and when it
-- was verified (the re-delivery window). Quoted as 20261124130000_events_webhooks quotes its functions. Two more
-- index lookups by payment id, only for a change that records an event.
CREATE OR REPLACE FUNCTION event_payment_snapshot(p payments) RETURNS jsonb LANGUAGE plpgsql STABLE AS E'
BEGIN
  RETURN jsonb_build_object(
    ''payment'', jsonb_build_object(
      ''id'', p.id, ''status'', p.status, ''rail'', p.rail, ''amountMicros'', p.amount_micros::text, ''currency'', p.currency,
      ''method'', p.method, ''path'', p.path, ''query'', p.query, ''operationKey'', p.operation_key, ''meterKey'', p.meter_key,
      ''payer'', p.payer, ''transaction'', p.transaction, ''failureReason'', p.failure_reason, ''credentialId'', p.credential_id,
      ''expiresAt'', p.expires_at, ''createdAt'', p.created_at, ''settledAt'', p.settled_at,
      ''verifiedAt'', p.verified_at, ''fromChallenge'', p.from_challenge, ''idempotencyKeyed'', coalesce(p.lock_key LIKE ''%:idem:%'', false)),
    ''settlement'', (SELECT jsonb_build_object(''status'', s.status, ''deliveredFirst'', s.delivered_first) FROM settlements s WHERE s.payment_id = p.id),
    ''purchase'', EXISTS (SELECT 1 FROM plan_purchases pp WHERE pp.payment_id = p.id),
    ''refund'', CASE WHEN p.status = ''refunded'' THEN
      (SELECT jsonb_build_object(''amountMicros'', l.amount_micros::text, ''transaction'', l.transaction, ''logIndex'', l.log_index, ''createdAt'', l.created_at)
       FROM ledger_entries l WHERE l.payment_id = p.id AND l.kind = ''refund'') END,
    ''card'', CASE WHEN p.rail = ''card'' THEN
      (SELECT jsonb_build_object(''flow'', c.flow, ''checkoutStatus'', c.checkout_status, ''cardBrand'', c.card_brand, ''cardLast4'', c.card_last4,
         ''lastErrorCode'', c.last_error_code, ''lastDeclineCode'', c.last_decline_code, ''lastErrorMessage'', c.last_error_message,
         ''refundStatus'', c.refund_status, ''refundCause'', c.refund_cause, ''refundError'', c.refund_error,
         ''refundRequestedAt'', c.refund_requested_at, ''refundedAt'', c.refunded_at)
       FROM card_payments c WHERE c.payment_id = p.id) END)\x3B
END\x3B
';
