// POST /plans/{planId}/purchase and POST /extend: buying credit on a plan is a paid call like any other, on the same
// rails and the same pipeline (readPaymentProof -> accept -> outbox -> charge), whose "upstream" is the grant: the
// statement that records the charge also makes the credit (server/payments/payments.queries.ts, unique per payment),
// so a purchase credits once however its proof is replayed, and a crash between charge and grant cannot happen.
//   rules (plan, amount: 404/400 before anything) -> the bearer (401) -> no proof: a 402 for that amount, bound to the
//   plan, the amount and the buyer's credential -> proof: charge -> the grant and the plan's balance.
import { findGrantByPayment, findPlanPurchase } from "../billing/billing.queries";
import { planBalances } from "../billing/get-entitlements";
import { checkPurchaseAmount, findPlan, parsePurchaseBody } from "../billing/purchase-rules";
import { findGrantsWithPlans } from "../billing/billing.queries";
import type { CatalogPlan } from "../catalog/catalog";
import { AppError } from "../errors";
import { readJson } from "../http/parse";
import { json } from "../http/respond";
import type { RouteContext } from "../http/route";
import { findLinkedCredentials } from "../identity/find-linked-credentials";
import { requireAgent, type AgentPrincipal } from "../identity/require-agent";
import { canonicalQuery } from "../lib/canonical-query";
import { microsToCents, microsToUsd } from "../lib/money";
import { createChallenge } from "../payments/create-challenge";
import { readPaymentProof } from "../payments/rails";
import type { PaidCall } from "../payments/rails/rail";
import { requestBinding } from "../payments/request-binding";
import { renderChallenge, renderOutcome } from "./render-outcome";
import { servePaidCall, type Delivery } from "./serve-paid-call";

type Kind = "purchase" | "extend";

/** POST /extend names the plan to top up, or leaves it out when the buyer holds credit on exactly one plan. */
async function planToExtend(catalog: { plans: CatalogPlan[] }, agent: AgentPrincipal, planId: string | undefined): Promise<CatalogPlan> {
  const { credentials } = await findLinkedCredentials(agent);
  const held = [...new Set((await findGrantsWithPlans(agent.sellerId, credentials)).map((g) => g.planId))];
  const candidates = planId ? held.filter((id) => id === planId || catalog.plans.find((p) => p.id === id)?.slug === planId) : held;
  if (candidates.length === 0)
    throw new AppError("access_not_found", {
      detail: planId
        ? `you hold no credit on plan "${planId}" to extend; buy it first (POST /plans/{planId}/purchase)`
        : "no active plan to extend; buy a plan first",
    });
  if (candidates.length > 1)
    throw new AppError("invalid_request", {
      reason: "invalid_parameter",
      detail: "you hold credit on several plans: name the one to top up in planId",
      extra: { parameter: "planId" },
    });
  const plan = catalog.plans.find((p) => p.id === candidates[0]);
  if (!plan) throw new AppError("plan_not_found", { detail: "that plan is retired: its credit keeps working, but it is no longer sold or topped up" });
  return plan;
}

/** Nothing to proxy: what a purchase delivers is made by the statement that records its charge. */
const grantDelivery: Delivery = {
  deliver: async () => ({ type: "response", status: 200, headers: new Headers(), body: new ArrayBuffer(0), usageHeader: null, ms: 0 }),
  meters: [],
};

async function purchaseResult(paymentId: string, agent: AgentPrincipal, rail: string | null, transaction: string | null) {
  const grant = await findGrantByPayment(paymentId);
  if (!grant) return null;
  const { credentials } = await findLinkedCredentials(agent);
  const plan = planBalances(await findGrantsWithPlans(agent.sellerId, credentials)).find((p) => p.id === grant.planId) ?? null;
  return {
    status: "credited",
    payment: { id: paymentId, rail, transaction },
    grant: {
      id: grant.id,
      plan: grant.planId,
      amountUsd: microsToUsd(grant.amountMicros),
      remainingUsd: microsToUsd(grant.remainingMicros),
      expiresAt: grant.expiresAt.toISOString(),
      credential: grant.credentialId,
    },
    plan,
  };
}

export async function handlePlanPurchase(ctx: RouteContext, kind: Kind): Promise<Response> {
  const seller = await ctx.seller();
  const catalog = await ctx.catalog();
  const body = parsePurchaseBody(await readJson(ctx.req, { optional: true }));
  // The request's own rules first (404, 400): nothing about the buyer or the payment is looked at before they hold.
  const planFromPath = kind === "purchase" ? findPlan(catalog, String(ctx.params.planId)) : null;
  if (planFromPath) checkPurchaseAmount(planFromPath, body);
  const agent = await requireAgent(ctx.req, { sellerId: seller.id, origin: ctx.origin });
  const plan = planFromPath ?? (await planToExtend(catalog, agent, body.planId));
  const amountMicros = checkPurchaseAmount(plan, body);
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });

  // Bound to the plan and the buyer (the query names both) and, through the challenge, to the amount.
  const query = canonicalQuery(new URLSearchParams({ credential: agent.credentialId, plan: plan.id }));
  const call: PaidCall = {
    purpose: "purchase",
    sellerId: seller.id,
    payTo: seller.payToAddress,
    origin: ctx.origin,
    realm: new URL(ctx.origin).hostname,
    method: "POST",
    path: ctx.url.pathname,
    canonicalQuery: query,
    operationKey: kind === "purchase" ? "plan_purchase" : "plan_extend",
    meterKey: null,
    includedUnits: 0,
    serviceSlug: "storefront",
    summary: `${plan.name}: ${microsToCents(amountMicros)} USD of credit`,
    amountMicros,
    binding: requestBinding({ sellerId: seller.id, method: "POST", path: ctx.url.pathname, canonicalQuery: query }),
    credentialId: agent.credentialId,
  };
  const planBlock = { plan: { id: plan.id, slug: plan.slug, name: plan.name, meters: plan.meterKeys }, amountUsd: microsToCents(amountMicros) };
  const challenge = () =>
    createChallenge(call, {
      detail: `${microsToCents(amountMicros)} USD of credit on ${plan.name}: pay this 402 on one of its rails and retry the same request with the proof`,
      purchase: { planId: plan.id, kind },
      extraBody: { purchase: planBlock },
    });

  const proof = readPaymentProof(ctx.req.headers);
  if (proof.type === "none") return renderChallenge(await challenge());
  const noop = { lap() {} };
  const outcome =
    proof.type === "malformed"
      ? ({ type: "refused", call, rail: proof.rail, error: proof.error } as const)
      : await servePaidCall(call, proof.rail, proof.proof, grantDelivery, noop);

  switch (outcome.type) {
    case "charged": {
      const result = await purchaseResult(outcome.hold.payment.id, agent, outcome.hold.rail, outcome.transaction);
      return json(result, { headers: { ...outcome.receipt, "cache-control": "no-store", "svc-payment-id": outcome.hold.payment.id } });
    }
    case "settlement_pending":
      // Served nothing yet: the credit is made when the charge confirms (the reconciler finishes it).
      return json(
        {
          status: "pending",
          payment: { id: outcome.hold.payment.id, rail: outcome.hold.rail },
          statusUrl: `${ctx.origin}/payments/${outcome.hold.payment.id}`,
        },
        { status: 202, headers: { "cache-control": "no-store", "svc-payment-id": outcome.hold.payment.id } },
      );
    case "refused": {
      // A replay of a purchase that went through answers what it answered then (the buyer's own, never another's).
      const paymentId = outcome.error.extra?.payment_id;
      if (outcome.error.code === "payment_consumed" && typeof paymentId === "string") {
        const purchase = await findPlanPurchase(paymentId);
        const result =
          purchase?.credentialId === agent.credentialId ? await purchaseResult(paymentId, agent, purchase.payment.rail, purchase.payment.transaction) : null;
        if (result) return json(result, { headers: { "cache-control": "no-store", "svc-payment-id": paymentId } });
      }
      const fresh = outcome.rail.refusal?.freshChallenge ? await challenge() : undefined;
      return renderOutcome(outcome, { freshChallenge: fresh });
    }
    case "declined":
      return renderChallenge(await challenge());
    default:
      return renderOutcome(outcome);
  }
}
