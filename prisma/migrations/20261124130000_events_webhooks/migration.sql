-- Operations (issue 26): events, webhook endpoints and deliveries, credit thresholds, alerts, background leases.
--
-- Events are written by triggers, in the transaction of the change they record, whatever code path made it (the
-- gateway, the reconciler, card webhooks, refunds, the console, hand-written SQL). The triggers on paid-path tables are
-- kept lean: a WHEN clause (evaluated without calling a function) lets every statement that records nothing through,
-- and the payment, purchase and claim triggers are deferred to commit, so their snapshot is the rows as the transaction
-- left them (a refund's ledger row and card refund state are written after its state move) and costs one function call
-- per recorded change. Credit draws (rail credits) are usage, not money: they emit no payment event. A statement trigger
-- on credit_grants emits credit.low and credit.exhausted when a holder's balance on a plan crosses the seller's line or
-- reaches zero, and does nothing else unless the statement left a grant below that line.
--
-- Every new event is fanned out to its seller's enabled endpoints (a webhook_deliveries row each) by emit_event(), in
-- the same transaction: a delivery exists exactly when its event does.
--
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "seller_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "subject_id" TEXT,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_types" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "secret_enc" TEXT NOT NULL,
    "previous_secret_enc" TEXT,
    "previous_secret_expires_at" TIMESTAMP(3),
    "failing_since" TIMESTAMP(3),
    "disabled_at" TIMESTAMP(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_endpoints_status" CHECK ("status" IN ('enabled', 'disabled'))
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER,
    "next_attempt_at" TIMESTAMP(3) NOT NULL,
    "claimed_until" TIMESTAMP(3),
    "claim_token" TEXT,
    "last_attempt_at" TIMESTAMP(3),
    "last_status" INTEGER,
    "last_latency_ms" INTEGER,
    "last_response" TEXT,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'))
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "response" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plan_credit_thresholds" (
    "plan_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "low_micros" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plan_credit_thresholds_pkey" PRIMARY KEY ("plan_id"),
    CONSTRAINT "plan_credit_thresholds_positive" CHECK ("low_micros" > 0)
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "details" JSONB NOT NULL,
    "opened_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMP(3),
    "notified_at" TIMESTAMP(3),
    "notify_claimed_until" TIMESTAMP(3),

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alerts_status" CHECK ("status" IN ('open', 'resolved'))
);

-- CreateTable
CREATE TABLE "background_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "background_leases_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
-- Serves: a seller's events, newest first.
CREATE INDEX "events_seller_id_seq_idx" ON "events"("seller_id", "seq" DESC);
-- Serves: the fan-out of every new event to its seller's endpoints, and the console's list.
CREATE INDEX "webhook_endpoints_seller_id_idx" ON "webhook_endpoints"("seller_id");
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");
-- Serves: an endpoint's deliveries, newest first (console).
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC);
-- Serves: the workers' scan for due deliveries, partial: so delivered rows (nearly all of them) are not in it.
CREATE INDEX "webhook_deliveries_next_attempt_at_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';
-- Serves: retention's delete of an old event's deliveries (the cascade looks them up by event).
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
-- Serves: a delivery's attempts in order.
CREATE INDEX "webhook_attempts_delivery_id_id_idx" ON "webhook_attempts"("delivery_id", "id");
CREATE INDEX "plan_credit_thresholds_seller_id_idx" ON "plan_credit_thresholds"("seller_id");
-- Serves: a seller's alerts, newest first (console).
CREATE INDEX "alerts_seller_id_opened_at_idx" ON "alerts"("seller_id", "opened_at" DESC);
-- Serves: whether a subject already had an alert of a kind (a payment's delayed settlement is told once).
CREATE INDEX "alerts_kind_subject_idx" ON "alerts"("kind", "subject");
-- One open alert per kind and subject, whichever instance finds it first (ON CONFLICT ... WHERE status = 'open').
CREATE UNIQUE INDEX "alerts_open_subject_key" ON "alerts"("kind", "subject") WHERE "status" = 'open';

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------- events: append-only, fanned out to webhook endpoints ----------

CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION ''events are append-only: % cannot be updated'', OLD.id\x3B
END\x3B
';

CREATE TRIGGER events_append_only BEFORE UPDATE ON "events" FOR EACH ROW EXECUTE FUNCTION events_append_only();

-- Append one event and fan it out: one delivery per enabled endpoint of the seller that takes its type (an empty list
-- takes every type), in the caller's transaction, so a delivery exists exactly when its event does. Every writer (the
-- triggers below, the app's alert checks) goes through this function: a plain INSERT INTO events would not be delivered.
-- A seller without endpoints pays one index probe for the fan-out.
CREATE FUNCTION emit_event(p_seller text, p_type text, p_subject text, p_data jsonb) RETURNS text LANGUAGE plpgsql VOLATILE AS E'
DECLARE
  v_id text := ''evt_'' || replace(gen_random_uuid()::text, ''-'', '''')\x3B
  v_at timestamp(3) := clock_timestamp() AT TIME ZONE ''UTC''\x3B
BEGIN
  INSERT INTO events (id, seller_id, type, subject_id, data, created_at) VALUES (v_id, p_seller, p_type, p_subject, p_data, v_at)\x3B
  INSERT INTO webhook_deliveries (id, seller_id, endpoint_id, event_id, status, next_attempt_at, created_at)
  SELECT ''whd_'' || replace(gen_random_uuid()::text, ''-'', ''''), p_seller, e.id, v_id, ''pending'', v_at, v_at
  FROM webhook_endpoints e
  WHERE e.seller_id = p_seller AND e.status = ''enabled'' AND (cardinality(e.event_types) = 0 OR p_type = ANY (e.event_types))\x3B
  RETURN v_id\x3B
END\x3B
';

-- ---------- snapshots: the rows an event's object is rendered from (server/events/render-event.ts) ----------

-- A payment as GET /payments/{id} reads it: the row (never rail_data, a bearer instrument) and, where they can exist, its
-- refund (a refunded payment) and card rows (the card rail): a wallet payment's snapshot reads no other table.
CREATE FUNCTION event_payment_snapshot(p payments) RETURNS jsonb LANGUAGE plpgsql STABLE AS E'
BEGIN
  RETURN jsonb_build_object(
    ''payment'', jsonb_build_object(
      ''id'', p.id, ''status'', p.status, ''rail'', p.rail, ''amountMicros'', p.amount_micros::text, ''currency'', p.currency,
      ''method'', p.method, ''path'', p.path, ''query'', p.query, ''operationKey'', p.operation_key, ''meterKey'', p.meter_key,
      ''payer'', p.payer, ''transaction'', p.transaction, ''failureReason'', p.failure_reason, ''credentialId'', p.credential_id,
      ''expiresAt'', p.expires_at, ''createdAt'', p.created_at, ''settledAt'', p.settled_at),
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

-- A plan as the manifest lists it, with its state.
CREATE FUNCTION event_plan_snapshot(p_plan text) RETURNS jsonb LANGUAGE sql STABLE AS E'
  SELECT jsonb_build_object(''id'', p.id, ''sellerId'', p.seller_id, ''slug'', p.slug, ''name'', p.name, ''description'', p.description, ''kind'', p.kind, ''status'', p.status,
    ''minimumMicros'', p.minimum_micros::text, ''maximumMicros'', p.maximum_micros::text, ''cardMinimumMicros'', p.card_minimum_micros::text,
    ''creditValidityDays'', p.credit_validity_days,
    ''meters'', coalesce((SELECT jsonb_agg(m.key ORDER BY m.key) FROM plan_meters pm JOIN meters m ON m.id = pm.meter_id WHERE pm.plan_id = p.id), ''[]''::jsonb))
  FROM plans p WHERE p.id = p_plan\x3B
';

-- A meter as the manifest lists it (with its price).
CREATE FUNCTION event_meter_snapshot(p_meter text) RETURNS jsonb LANGUAGE sql STABLE AS E'
  SELECT jsonb_build_object(''id'', m.id, ''key'', m.key, ''title'', m.title, ''unit'', m.unit, ''includedUnits'', m.included_units,
    ''priceMicros'', (SELECT pr.amount_micros::text FROM prices pr WHERE pr.meter_id = m.id))
  FROM meters m WHERE m.id = p_meter\x3B
';

-- The live grants of one plan that a credential can draw: its own and those of every credential its human claimed at
-- the seller (entitlements' rule), first to expire first. Looked up by credential (credit_grants (credential_id, ...)).
CREATE FUNCTION event_holder_grants(p_seller text, p_credential text, p_plan text) RETURNS jsonb LANGUAGE sql STABLE AS E'
  SELECT coalesce(jsonb_agg(jsonb_build_object(''id'', g.id, ''credentialId'', g.credential_id, ''sourcePaymentId'', g.source_payment_id,
      ''amountMicros'', g.amount_micros::text, ''remainingMicros'', g.remaining_micros::text, ''expiresAt'', g.expires_at, ''createdAt'', g.created_at)
    ORDER BY g.expires_at, g.created_at, g.id), ''[]''::jsonb)
  FROM credit_grants g
  WHERE g.credential_id = ANY (ARRAY[p_credential] || ARRAY(
      SELECT o.id FROM agent_credentials me
      JOIN agent_credentials o ON o.human_id = me.human_id AND o.seller_id = p_seller AND o.status = ''claimed'' AND o.revoked_at IS NULL AND o.id <> p_credential
      WHERE me.id = p_credential AND me.human_id IS NOT NULL))
    AND g.seller_id = p_seller AND g.plan_id = p_plan AND g.expires_at > now() AT TIME ZONE ''UTC''\x3B
';

-- ---------- payments: settled, released, refunded, failed ----------

CREATE FUNCTION payments_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- Run at commit: the payment row as its state move left it (settlement, reason and transaction are set with the state),
  -- and the refund and card rows as the transaction left them (a refund writes its ledger and card rows after the move).
  PERFORM emit_event(NEW.seller_id,
    CASE NEW.status WHEN ''released'' THEN ''payment.released'' WHEN ''refunded'' THEN ''payment.refunded'' WHEN ''failed'' THEN ''payment.failed'' ELSE ''payment.settled'' END,
    NEW.id, event_payment_snapshot(NEW))\x3B
  RETURN NULL\x3B
END\x3B
';

-- Settled once (settled or straight to consumed, a delivered checkout's settled -> consumed is not a second payment),
-- then released, refunded or failed. Not the credits rail: a draw on prepaid credit is usage.
CREATE CONSTRAINT TRIGGER payments_emit_event AFTER UPDATE OF "status" ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.rail IS DISTINCT FROM 'credits'
        AND (NEW.status IN ('released', 'refunded', 'failed') OR (NEW.status IN ('settled', 'consumed') AND OLD.status NOT IN ('settled', 'consumed'))))
  EXECUTE FUNCTION payments_emit_event();

-- ---------- plans purchased and extended ----------

-- A grant is made by the statement that records a purchase's charge (every rail's): the grant, the payment that paid it,
-- the plan, and the buyer's balance on the plan after it (the purchase answer's `plan`).
CREATE FUNCTION credit_grants_emit_purchase() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(g.seller_id, CASE WHEN pp.kind = ''extend'' THEN ''plan.extended'' ELSE ''plan.purchased'' END, g.source_payment_id,
    jsonb_build_object(
      ''kind'', coalesce(pp.kind, ''purchase''),
      ''payment'', jsonb_build_object(''id'', p.id, ''rail'', p.rail, ''transaction'', p.transaction, ''amountMicros'', p.amount_micros::text),
      ''grant'', jsonb_build_object(''id'', g.id, ''planId'', g.plan_id, ''credentialId'', g.credential_id, ''sourcePaymentId'', g.source_payment_id,
        ''amountMicros'', g.amount_micros::text, ''remainingMicros'', g.remaining_micros::text, ''expiresAt'', g.expires_at, ''createdAt'', g.created_at),
      ''plan'', event_plan_snapshot(g.plan_id),
      ''grants'', event_holder_grants(g.seller_id, g.credential_id, g.plan_id)))
  FROM credit_grants g JOIN payments p ON p.id = g.source_payment_id LEFT JOIN plan_purchases pp ON pp.payment_id = g.source_payment_id
  WHERE g.id = NEW.id\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE CONSTRAINT TRIGGER credit_grants_emit_purchase AFTER INSERT ON "credit_grants"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION credit_grants_emit_purchase();

-- ---------- credit low and exhausted ----------

-- After a statement that lowered live grants (a draw): for each holder of the plan (the human who claimed the buying
-- credential, else that credential), the balance before and after: credit.low when it crossed the plan's line,
-- credit.exhausted when it reached zero. Nothing is computed unless a lowered grant ended below its line or at zero: a
-- holder's balance is at least the grant's, so no holder can have crossed otherwise.
CREATE FUNCTION credit_grants_emit_balance() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id LEFT JOIN plan_credit_thresholds t ON t.plan_id = n.plan_id
    WHERE n.remaining_micros < o.remaining_micros AND n.expires_at > now() AT TIME ZONE ''UTC''
      AND (n.remaining_micros = 0 OR n.remaining_micros < t.low_micros)) THEN
    RETURN NULL\x3B
  END IF\x3B
  PERFORM emit_event(b.seller_id, k.type, b.plan_id,
      jsonb_build_object(''plan'', event_plan_snapshot(b.plan_id), ''credentialId'', b.credential_id, ''humanId'', b.human_id,
        ''lowMicros'', b.low_micros::text, ''grants'', b.grants))
  FROM (
    SELECT h.*, t.low_micros, bal.grants, bal.after_micros, bal.after_micros + h.drawn AS before_micros
    FROM (
      SELECT n.seller_id, n.plan_id, c.human_id, min(n.credential_id) AS credential_id, sum(o.remaining_micros - n.remaining_micros) AS drawn
      FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN agent_credentials c ON c.id = n.credential_id
      WHERE n.remaining_micros < o.remaining_micros AND n.expires_at > now() AT TIME ZONE ''UTC''
      GROUP BY n.seller_id, n.plan_id, c.human_id, CASE WHEN c.human_id IS NULL THEN n.credential_id END
    ) h
    LEFT JOIN plan_credit_thresholds t ON t.plan_id = h.plan_id
    CROSS JOIN LATERAL (
      SELECT gs.grants, coalesce((SELECT sum((e->>''remainingMicros'')::bigint) FROM jsonb_array_elements(gs.grants) e), 0) AS after_micros
      FROM (SELECT event_holder_grants(h.seller_id, h.credential_id, h.plan_id) AS grants) gs
    ) bal
  ) b
  CROSS JOIN LATERAL (
    SELECT ''credit.low'' AS type WHERE b.low_micros IS NOT NULL AND b.before_micros >= b.low_micros AND b.after_micros < b.low_micros
    UNION ALL
    SELECT ''credit.exhausted'' WHERE b.before_micros > 0 AND b.after_micros = 0
  ) k\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER credit_grants_emit_balance AFTER UPDATE ON "credit_grants"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_grants_emit_balance();

-- ---------- claims completed ----------

CREATE FUNCTION agent_credentials_emit_claim() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(c.seller_id, ''claim.completed'', c.id,
    jsonb_build_object(''agent'', jsonb_build_object(''id'', c.id, ''type'', c.kind, ''claimed'', true, ''human'', jsonb_build_object(''id'', h.id, ''email'', h.email)),
      ''claimedAt'', c.claimed_at, ''via'', CASE TG_OP WHEN ''INSERT'' THEN ''identity_assertion'' ELSE ''claim'' END))
  FROM agent_credentials c JOIN humans h ON h.id = c.human_id
  WHERE c.id = NEW.id AND c.status = ''claimed''\x3B
  RETURN NULL\x3B
END\x3B
';

-- The claim ceremony moves a credential to claimed, an ID-JAG registration creates it claimed (no ceremony).
CREATE CONSTRAINT TRIGGER agent_credentials_emit_claim AFTER UPDATE OF "status" ON "agent_credentials"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status = 'claimed' AND OLD.status IS DISTINCT FROM 'claimed')
  EXECUTE FUNCTION agent_credentials_emit_claim();

CREATE CONSTRAINT TRIGGER agent_credentials_emit_claim_insert AFTER INSERT ON "agent_credentials"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status = 'claimed')
  EXECUTE FUNCTION agent_credentials_emit_claim();

-- ---------- prices and plans changed ----------

CREATE FUNCTION prices_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(NEW.seller_id, ''price.updated'', NEW.meter_id,
    jsonb_build_object(''meter'', event_meter_snapshot(NEW.meter_id),
      ''previous'', jsonb_build_object(''priceMicros'', CASE WHEN TG_OP = ''UPDATE'' THEN OLD.amount_micros::text END)))\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE CONSTRAINT TRIGGER prices_emit_event AFTER UPDATE OF "amount_micros" ON "prices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.amount_micros IS DISTINCT FROM NEW.amount_micros)
  EXECUTE FUNCTION prices_emit_event();

CREATE CONSTRAINT TRIGGER prices_emit_event_insert AFTER INSERT ON "prices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION prices_emit_event();

-- A meter's free included units are part of its terms too.
CREATE FUNCTION meters_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM emit_event(NEW.seller_id, ''price.updated'', NEW.id,
    jsonb_build_object(''meter'', event_meter_snapshot(NEW.id), ''previous'', jsonb_build_object(''includedUnits'', OLD.included_units)))\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE CONSTRAINT TRIGGER meters_emit_event AFTER UPDATE OF "included_units" ON "meters"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.included_units IS DISTINCT FROM NEW.included_units)
  EXECUTE FUNCTION meters_emit_event();

-- A plan edit writes its row and its meters in one transaction (plan_meters rows deleted and inserted): one event per
-- plan per transaction, whichever of them comes first at commit. Remembered in a transaction-local setting.
CREATE FUNCTION plan_event_once(p_plan text) RETURNS boolean LANGUAGE plpgsql AS E'
DECLARE
  seen text := coalesce(current_setting(''storefront.plan_events'', true), '''')\x3B
BEGIN
  IF position('','' || p_plan || '','' IN seen) > 0 THEN
    RETURN false\x3B
  END IF\x3B
  PERFORM set_config(''storefront.plan_events'', seen || '','' || p_plan || '','', true)\x3B
  RETURN true\x3B
END\x3B
';

-- One plan's event, unless this transaction recorded one for it already.
CREATE FUNCTION emit_plan_event(p_plan text, p_type text) RETURNS void LANGUAGE plpgsql AS E'
DECLARE
  v_snapshot jsonb := event_plan_snapshot(p_plan)\x3B
BEGIN
  IF v_snapshot IS NOT NULL AND plan_event_once(p_plan) THEN
    PERFORM emit_event(v_snapshot->>''sellerId'', p_type, p_plan, jsonb_build_object(''plan'', v_snapshot - ''sellerId''))\x3B
  END IF\x3B
END\x3B
';

CREATE FUNCTION plans_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM emit_plan_event(NEW.id, ''plan.created'')\x3B
  ELSIF OLD.status = ''live'' AND NEW.status = ''retired'' THEN
    PERFORM emit_plan_event(NEW.id, ''plan.retired'')\x3B
  ELSE
    PERFORM emit_plan_event(NEW.id, ''plan.updated'')\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE FUNCTION plan_meters_emit_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    PERFORM emit_plan_event(OLD.plan_id, ''plan.updated'')\x3B
  ELSE
    PERFORM emit_plan_event(NEW.plan_id, ''plan.updated'')\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

-- Deferred: a plan's meters are written after its row, in the same transaction. An update that changes nothing a
-- buyer sees (a re-seed writing the same name, the console saving unchanged terms) records nothing.
CREATE CONSTRAINT TRIGGER plans_emit_event AFTER INSERT ON "plans"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION plans_emit_event();

CREATE CONSTRAINT TRIGGER plans_emit_event_update AFTER UPDATE ON "plans"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.slug, OLD.name, OLD.description, OLD.kind, OLD.status, OLD.minimum_micros, OLD.maximum_micros, OLD.card_minimum_micros, OLD.credit_validity_days)
        IS DISTINCT FROM (NEW.slug, NEW.name, NEW.description, NEW.kind, NEW.status, NEW.minimum_micros, NEW.maximum_micros, NEW.card_minimum_micros, NEW.credit_validity_days))
  EXECUTE FUNCTION plans_emit_event();

-- The meters a plan's credit covers are part of its terms.
CREATE CONSTRAINT TRIGGER plan_meters_emit_event AFTER INSERT OR DELETE ON "plan_meters"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION plan_meters_emit_event();
