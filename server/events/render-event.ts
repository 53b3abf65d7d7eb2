// An event row as its consumers read it (webhook bodies, the console): `{ id, type, timestamp, data }` with
// `data.object` in the shape the API shows that object. The row holds a snapshot of the rows the change left, taken in
// its transaction by the database (migration 20261124130000_events_webhooks); this turns it into the API's shape with
// the API's own functions (the card block of GET /payments/{id}, the plan balance of entitlements, the manifest's plan
// terms), so an event says what the API said at that moment. Links (a checkout page, a purchase URL) use `origin`.
import { planBalances } from "../billing/get-entitlements";
import { planPurchaseTerms } from "../catalog/plan-purchase-terms";
import type { EventEnvelope } from "../contracts/events";
import { env } from "../env";
import { microsToUsd } from "../lib/money";
import { paymentPhase, type PhaseFacts } from "../payments/payment-phase";
import { refundFields } from "../payments/refund-entries";
import type { PaymentStatus } from "../payments/payment-state";
import { cardBlock, type PaymentWithCard } from "../payments/rails";

export type EventRow = { id: string; type: string; createdAt: Date; data: unknown };

type Json = Record<string, unknown>;
type PaymentSnapshot = {
  payment: Json & { id: string; status: string; amountMicros: string };
  refund: (Json & { amountMicros: string }) | null;
  /** Each ledger refund; since 20261201100000_refund_events (before it, a refund was only ever the whole payment). */
  refunds?: (Json & { amountMicros: string })[];
  card: Json | null;
  /** Since 20261124210000_payment_phase_events; absent in events written before it. */
  settlement?: PhaseFacts["settlement"];
  purchase?: boolean;
};
type GrantSnapshot = {
  id: string;
  credentialId: string;
  sourcePaymentId: string;
  amountMicros: string;
  remainingMicros: string;
  expiresAt: string;
  createdAt: string;
};
type PlanSnapshot = {
  id: string;
  slug: string;
  name: string;
  description: string;
  kind: string;
  status: string;
  minimumMicros: string | null;
  maximumMicros: string | null;
  cardMinimumMicros: string | null;
  creditValidityDays: number;
  meters: string[];
};

/** PostgreSQL's `timestamp` in JSON ("2026-11-24T13:00:00.12", UTC wall time) as ISO 8601 with its zone. */
function iso(v: unknown): string {
  return new Date(`${String(v)}Z`).toISOString();
}
const isoOrNull = (v: unknown) => (v == null ? null : iso(v));
const dateOrNull = (v: unknown) => (v == null ? null : new Date(`${String(v)}Z`));
const str = (v: unknown) => (v == null ? null : String(v));

/**
 * GET /payments/{id} for the snapshot (server/payments/get-payment-status.ts answers the same fields), as of `at`, the
 * change's time (the phase of a paid payment depends on how long ago it was charged).
 */
export function renderPayment(s: PaymentSnapshot, origin: string, at: Date) {
  const p = s.payment;
  // The phase of the API's own table, from the snapshot's fields. A snapshot taken before the phase's fields were (an
  // event older than its migration) lacks the outbox row and the proof's binding: read as "answered a challenge".
  const phase = paymentPhase(
    {
      status: p.status as PaymentStatus,
      failureReason: str(p.failureReason),
      expiresAt: new Date(iso(p.expiresAt)),
      settledAt: dateOrNull(p.settledAt),
      verifiedAt: dateOrNull(p.verifiedAt),
      createdAt: new Date(iso(p.createdAt)),
      method: String(p.method),
      fromChallenge: p.fromChallenge !== false,
      idempotencyKeyed: p.idempotencyKeyed === true,
      purchase: s.purchase === true,
      settlement: s.settlement ?? null,
    },
    at.getTime(),
    env().PAYMENT_REPLAY_HOURS,
  );
  const c = s.card;
  // The card block is the API's own function, given the rows it reads.
  const withCard = {
    id: p.id,
    status: p.status,
    failureReason: str(p.failureReason),
    amountMicros: BigInt(p.amountMicros),
    card: c && {
      flow: c.flow,
      checkoutStatus: str(c.checkoutStatus),
      cardBrand: str(c.cardBrand),
      cardLast4: str(c.cardLast4),
      lastErrorCode: str(c.lastErrorCode),
      lastDeclineCode: str(c.lastDeclineCode),
      lastErrorMessage: str(c.lastErrorMessage),
      refundStatus: str(c.refundStatus),
      refundCause: str(c.refundCause),
      refundRequestedAt: dateOrNull(c.refundRequestedAt),
      refundedAt: dateOrNull(c.refundedAt),
    },
  } as unknown as PaymentWithCard;
  return {
    id: p.id,
    status: p.status,
    ...phase,
    complete: p.status === "settled" || p.status === "consumed",
    rail: str(p.rail),
    amount: microsToUsd(BigInt(p.amountMicros)),
    currency: String(p.currency),
    method: String(p.method),
    path: String(p.path),
    query: String(p.query),
    operation: String(p.operationKey),
    meter: str(p.meterKey),
    payer: str(p.payer),
    transaction: str(p.transaction),
    reason: str(p.failureReason),
    expires_at: iso(p.expiresAt),
    created_at: iso(p.createdAt),
    settled_at: isoOrNull(p.settledAt),
    ...refundFields(
      { status: p.status, refundedMicros: BigInt(String(p.refundedMicros ?? (s.refund ? s.refund.amountMicros : 0))) },
      (s.refunds ?? (s.refund ? [s.refund] : [])).map((r) => ({
        amountMicros: BigInt(r.amountMicros),
        transaction: str(r.transaction),
        logIndex: r.logIndex == null ? null : Number(r.logIndex),
        createdAt: new Date(iso(r.createdAt)),
      })),
    ),
    card: cardBlock(withCard, origin),
  };
}

/** Entitlements' balance of one plan over the holder's grants (billing's own function). */
function renderPlanBalance(plan: PlanSnapshot, grants: GrantSnapshot[]) {
  const rows = grants.map((g) => ({
    id: g.id,
    planId: plan.id,
    credentialId: g.credentialId,
    sourcePaymentId: g.sourcePaymentId,
    amountMicros: BigInt(g.amountMicros),
    remainingMicros: BigInt(g.remainingMicros),
    expiresAt: new Date(`${g.expiresAt}Z`),
    createdAt: new Date(`${g.createdAt}Z`),
    plan: { id: plan.id, slug: plan.slug, name: plan.name, status: plan.status, meters: plan.meters },
  }));
  return planBalances(rows)[0] ?? null;
}

/** The manifest's plan (with its state, and its purchase terms while it is a credit plan). */
export function renderPlan(p: PlanSnapshot, origin: string) {
  const micros = (v: string | null) => (v == null ? null : BigInt(v));
  const terms = planPurchaseTerms({
    minimumMicros: micros(p.minimumMicros),
    maximumMicros: micros(p.maximumMicros),
    cardMinimumMicros: micros(p.cardMinimumMicros),
    creditValidityDays: p.creditValidityDays,
  });
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    kind: p.kind,
    description: p.description,
    status: p.status,
    meters: p.meters,
    purchase: p.kind === "credit" ? { url: `${origin}/plans/${p.id}/purchase`, ...terms } : null,
  };
}

function renderMeter(m: Json) {
  const price = m.priceMicros == null ? null : BigInt(String(m.priceMicros));
  return {
    key: String(m.key),
    title: String(m.title),
    unit: String(m.unit),
    priceUsd: price == null ? null : microsToUsd(price),
    priceMicros: price?.toString() ?? null,
    includedUnits: Number(m.includedUnits),
  };
}

type Renderer = (d: Json, origin: string, at: Date) => Json;

const payment: Renderer = (d, origin, at) => ({ object: renderPayment(d as unknown as PaymentSnapshot, origin, at), ...(d.alert ? { alert: d.alert } : {}) });

const purchase: Renderer = (d) => {
  const pay = d.payment as Json;
  const g = d.grant as GrantSnapshot & { planId: string };
  return {
    object: {
      status: "credited",
      payment: { id: String(pay.id), rail: str(pay.rail), transaction: str(pay.transaction) },
      grant: {
        id: g.id,
        plan: g.planId,
        amountUsd: microsToUsd(BigInt(g.amountMicros)),
        remainingUsd: microsToUsd(BigInt(g.remainingMicros)),
        expiresAt: iso(g.expiresAt),
        credential: g.credentialId,
      },
      plan: renderPlanBalance(d.plan as PlanSnapshot, d.grants as GrantSnapshot[]),
    },
  };
};

const credit: Renderer = (d) => ({
  object: renderPlanBalance(d.plan as PlanSnapshot, d.grants as GrantSnapshot[]),
  holder: { credential: String(d.credentialId), human: str(d.humanId) },
  ...(d.lowMicros != null ? { threshold_usd: microsToUsd(BigInt(String(d.lowMicros))) } : {}),
});

const approval: Renderer = (d) => {
  const a = d.approval as Json & { amountMicros: string; thresholdMicros: string };
  return {
    object: {
      id: a.id,
      status: a.status,
      amountUsd: microsToUsd(BigInt(a.amountMicros)),
      thresholdUsd: microsToUsd(BigInt(a.thresholdMicros)),
      method: a.method,
      path: a.path,
      query: a.query,
      operation: a.operationKey,
      expiresAt: iso(a.expiresAt),
      decidedAt: isoOrNull(a.decidedAt),
      createdAt: iso(a.createdAt),
    },
    agent: d.agent,
  };
};

const RENDERERS: Record<string, Renderer> = {
  "payment.settled": payment,
  "payment.released": payment,
  "payment.refunded": payment,
  "payment.failed": payment,
  "payment.settlement_delayed": payment,
  "payment.action_required": payment,
  "plan.purchased": purchase,
  "plan.extended": purchase,
  "credit.low": credit,
  "credit.exhausted": (d, o, at) => {
    const { threshold_usd: _t, ...rest } = credit(d, o, at);
    return rest;
  },
  "claim.completed": (d) => ({ object: d.agent, via: d.via, claimed_at: iso(d.claimedAt) }),
  "credential.frozen": (d) => ({ object: d.agent, via: d.via, frozen_at: iso(d.at) }),
  "credential.unfrozen": (d) => ({ object: d.agent, via: d.via, unfrozen_at: iso(d.at) }),
  "credential.revoked": (d) => ({ object: d.agent, via: d.via, revoked_at: iso(d.at) }),
  "approval.requested": approval,
  "approval.approved": approval,
  "approval.declined": approval,
  "approval.expired": approval,
  "price.updated": (d) => {
    const prev = (d.previous ?? {}) as Json;
    return {
      object: renderMeter(d.meter as Json),
      previous: {
        ...("priceMicros" in prev ? { priceUsd: prev.priceMicros == null ? null : microsToUsd(BigInt(String(prev.priceMicros))) } : {}),
        ...("includedUnits" in prev ? { includedUnits: Number(prev.includedUnits) } : {}),
      },
    };
  },
  "plan.created": (d, o) => ({ object: renderPlan(d.plan as PlanSnapshot, o) }),
  "plan.updated": (d, o) => ({ object: renderPlan(d.plan as PlanSnapshot, o) }),
  "plan.retired": (d, o) => ({ object: renderPlan(d.plan as PlanSnapshot, o) }),
};

/** The event as webhooks and the console carry it. Types written by the app itself hold their rendered `data`. */
export function renderEvent(e: EventRow, origin: string): EventEnvelope {
  const render = RENDERERS[e.type];
  const data = (e.data ?? {}) as Json;
  return { id: e.id, type: e.type, timestamp: e.createdAt.toISOString(), data: render ? render(data, origin, e.createdAt) : data };
}
