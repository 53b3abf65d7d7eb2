// The events a storefront emits (SERVICE.md part 6), one list: their types, what each means, and the object each
// carries, in the shape the API shows that object (GET /payments/{id}, the purchase answer, entitlements, the manifest).
// Webhook payloads are `eventEnvelope`; docs/events.md describes the same list (a test holds the two together).
import { z } from "zod";
import { paymentStatusResponse } from "./payment-status";
import { entitlementsResponse, purchaseResponse } from "./platform";

const usd = z.string().meta({ description: "USD, six decimals." });

/** A meter as /manifest.json lists it. */
export const manifestMeter = z.object({
  key: z.string(),
  title: z.string(),
  unit: z.string(),
  priceUsd: usd.nullable(),
  priceMicros: z.string().nullable(),
  includedUnits: z.number().int(),
});

/** A plan as /manifest.json lists it, with its state (a retired plan is no longer listed there). */
export const manifestPlan = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.string(),
  description: z.string(),
  status: z.enum(["live", "retired"]),
  meters: z.array(z.string()),
  purchase: z
    .object({
      url: z.string(),
      minimumUsd: z.string().nullable(),
      maximumUsd: z.string().nullable(),
      cardMinimumUsd: z.string(),
      creditValidityDays: z.number(),
    })
    .nullable(),
});

/** An operation's upstream over the alert window. */
export const upstreamHealth = z.object({
  operation: z.string(),
  window_seconds: z.number().int(),
  calls: z.number().int(),
  failures: z.number().int(),
  failure_rate: z.number(),
  reasons: z.record(z.string(), z.number().int()).meta({ description: "Failures by reason: upstream_error (5xx), upstream_timeout, upstream_unreachable." }),
});

/** A webhook endpoint as the console shows it (never its secret). */
export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()),
  status: z.enum(["enabled", "disabled"]),
  failing_since: z.string().nullable(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
});

const planBalance = entitlementsResponse.shape.plans.element;

/** A paid call held for its person's approval (server/approvals), in the words of its `approval_required` answer. */
export const approvalView = z.object({
  id: z.string(),
  status: z.enum(["pending", "approved", "declined", "expired", "used"]),
  amountUsd: usd,
  thresholdUsd: usd,
  method: z.string(),
  path: z.string(),
  query: z.string(),
  operation: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});

/** A paid call refused with budget_exceeded: the limit it would have passed, as the agent's answer named it. */
export const budgetRefusalView = z.object({
  operation: z.string(),
  priceUsd: usd,
  budgetScope: z.enum(["credential", "person"]),
  budgetPeriod: z.enum(["call", "day", "month"]),
  limitUsd: usd,
  remainingUsd: usd,
  resetsAt: z.string().nullable(),
});

const approvalEvent = (about: string) => ({ about, data: z.object({ object: approvalView, agent: entitlementsResponse.shape.agent }) });

/** Per type: what it means, and `data` (`object` plus what the event adds about it). */
export const EVENTS = {
  "payment.settled": { about: "A payment was charged (settled on chain, or its card paid).", data: z.object({ object: paymentStatusResponse }) },
  "payment.released": {
    about: "A payment was released without charge (upstream failed, crash recovery, checkout expired); `object.reason` says why.",
    data: z.object({ object: paymentStatusResponse }),
  },
  "payment.refunded": {
    about:
      "Money went back on a paid payment (by the seller, in full or in part, or a card refunded after a failed delivery): once per refund, like Stripe's charge.refunded; `object.amount_refunded` is the sum so far, `object.status` refunded once it is the whole amount.",
    data: z.object({ object: paymentStatusResponse }),
  },
  "payment.failed": {
    about: "A payment's settlement failed (the payer is not charged); `object.reason` says why.",
    data: z.object({ object: paymentStatusResponse }),
  },
  "payment.settlement_delayed": {
    about: "Alert: a payment's settlement is still pending ALERT_SETTLEMENT_DELAY_SECONDS after the call (chain or facilitator trouble).",
    data: z.object({ object: paymentStatusResponse, alert: z.object({ pending_since: z.string(), threshold_seconds: z.number().int() }) }),
  },
  "payment.action_required": {
    about: "Alert: a payment needs a person (a card refund the processor refused).",
    data: z.object({ object: paymentStatusResponse, alert: z.object({ reason: z.literal("refund_failed"), detail: z.string().nullable() }) }),
  },
  "plan.purchased": { about: "Plan credit was bought (the purchase answer).", data: z.object({ object: purchaseResponse }) },
  "plan.extended": { about: "Plan credit was topped up (POST /extend; the purchase answer).", data: z.object({ object: purchaseResponse }) },
  "credit.low": {
    about: "A holder's credit on a plan fell below the plan's threshold (set in the console).",
    data: z.object({
      object: planBalance,
      holder: z.object({ credential: z.string(), human: z.string().nullable() }),
      threshold_usd: usd,
    }),
  },
  "credit.exhausted": {
    about: "A holder's credit on a plan reached zero.",
    data: z.object({ object: planBalance, holder: z.object({ credential: z.string(), human: z.string().nullable() }) }),
  },
  "claim.completed": {
    about: "A human claimed an agent credential (or an ID-JAG registration created one born claimed).",
    data: z.object({ object: entitlementsResponse.shape.agent, via: z.enum(["claim", "identity_assertion"]), claimed_at: z.string() }),
  },
  "credential.frozen": {
    about: "A person froze an agent credential they claimed: its paid calls are refused (credential_frozen) until they unfreeze it.",
    data: z.object({ object: entitlementsResponse.shape.agent, via: z.literal("person"), frozen_at: z.string() }),
  },
  "credential.unfrozen": {
    about: "A person unfroze an agent credential they had frozen: it pays again.",
    data: z.object({ object: entitlementsResponse.shape.agent, via: z.literal("person"), unfrozen_at: z.string() }),
  },
  "credential.revoked": {
    about: "An agent credential was revoked for good, by its person or by the agent (RFC 7009 /oauth2/revoke).",
    data: z.object({ object: entitlementsResponse.shape.agent, via: z.enum(["person", "token_revocation"]), revoked_at: z.string() }),
  },
  "approval.requested": approvalEvent("A paid call over its person's approval threshold was held (approval_required); the person was emailed."),
  "approval.approved": approvalEvent("A person approved a held call: the agent's retry of the same request is served and charged once."),
  "approval.declined": approvalEvent("A person declined a held call: it is refused (approval_declined)."),
  "approval.expired": approvalEvent("A held call's approval was not answered in time: it declined by itself."),
  "budget.exceeded": {
    about: "A paid call was refused because it would pass a budget its person set (budget_exceeded); nothing was charged.",
    data: z.object({ object: budgetRefusalView, agent: entitlementsResponse.shape.agent }),
  },
  "price.updated": {
    about: "A meter's price or free included units changed; `previous` holds the values before.",
    data: z.object({ object: manifestMeter, previous: z.object({ priceUsd: usd.nullable().optional(), includedUnits: z.number().int().optional() }) }),
  },
  "plan.created": { about: "A plan was created.", data: z.object({ object: manifestPlan }) },
  "plan.updated": { about: "A plan's terms changed (for the next purchase).", data: z.object({ object: manifestPlan }) },
  "plan.retired": { about: "A plan was retired: no longer sold; credit bought on it keeps working.", data: z.object({ object: manifestPlan }) },
  "operation.upstream_failing": {
    about: "Alert: an operation's upstream failed at least ALERT_UPSTREAM_FAILURE_RATE of its paid calls over the window.",
    data: z.object({ object: upstreamHealth }),
  },
  "operation.upstream_recovered": { about: "An upstream_failing alert cleared.", data: z.object({ object: upstreamHealth }) },
  "webhook_endpoint.disabled": {
    about: "Alert: a webhook endpoint failed every attempt for WEBHOOK_DISABLE_AFTER_HOURS and was disabled (sent to the seller's other endpoints).",
    data: z.object({ object: webhookEndpointView }),
  },
} as const;

export type EventType = keyof typeof EVENTS;
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];

/** The webhook body (Standard Webhooks: `type`, `timestamp`, `data`), also what the console shows. */
export const eventEnvelope = z.object({
  id: z.string().meta({ description: "evt_...: stable, the same on every retry (also the webhook-id header)." }),
  type: z.string(),
  timestamp: z.string().meta({ description: "When it happened (ISO 8601, UTC)." }),
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof eventEnvelope>;
