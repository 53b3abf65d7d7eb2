// POST /plans/{planId}/purchase and POST /extend: buying credit on a plan is a paid call like any other, on the same
// rails and the same pipeline (run-paid-call.ts), whose "upstream" is the grant: the statement that records the charge
// also makes the credit (server/payments/payments.queries.ts, unique per payment), so a purchase credits once however
// its proof is replayed, and a crash between charge and grant cannot happen.
//   rules (plan, amount: 404/400 before anything) -> the bearer (401) -> no proof: a 402 for that amount, bound to the
//   plan, the amount and the buyer's credential -> proof: charge -> the grant and the plan's balance.
import { findGrantByPayment, findGrantsWithPlans, findPlanPurchase } from "../billing/billing.queries";
import { planBalances } from "../billing/get-entitlements";
import { checkPurchaseAmount, findPlan, parsePurchaseBody } from "../billing/purchase-rules";
import type { CatalogPlan } from "../catalog/catalog";
import { AppError } from "../errors";
import { readJson } from "../http/parse";
import { json } from "../http/respond";
import type { RouteContext } from "../http/route";
import { findLinkedCredentials } from "../identity/find-linked-credentials";
import { requireAgent, type AgentPrincipal } from "../identity/require-agent";
import { microsToCents, microsToUsd } from "../lib/money";
import { paidCall } from "./paid-call";
import type { PaidOutcome } from "./paid-outcome";
import { renderOutcome } from "./render-outcome";
import { runPaidCall, type Priced } from "./run-paid-call";
import type { Delivery } from "./serve-paid-call";

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
  let agent: AgentPrincipal;
  return runPaidCall({
    proofs: ctx.req.headers,
    client: ctx.clientAddress,
    async price(): Promise<Priced> {
      const seller = await ctx.seller();
      const catalog = await ctx.catalog();
      const body = parsePurchaseBody(await readJson(ctx.req, { optional: true }));
      // The request's own rules first (404, 400): nothing about the buyer or the payment is looked at before they hold.
      const planFromPath = kind === "purchase" ? findPlan(catalog, String(ctx.params.planId)) : null;
      if (planFromPath) checkPurchaseAmount(planFromPath, body);
      agent = await requireAgent(ctx.req, { sellerId: seller.id, origin: ctx.origin });
      const plan = planFromPath ?? (await planToExtend(catalog, agent, body.planId));
      const amountMicros = checkPurchaseAmount(plan, body);
      // Bound to the plan and the buyer (the query names both) and, through the challenge, to the amount.
      const call = paidCall(seller, ctx.origin, {
        purpose: "purchase",
        method: "POST",
        path: ctx.url.pathname,
        query: new URLSearchParams({ credential: agent.credentialId, plan: plan.id }),
        operationKey: kind === "purchase" ? "plan_purchase" : "plan_extend",
        meterKey: null,
        includedUnits: 0,
        serviceSlug: "storefront",
        summary: `${plan.name}: ${microsToCents(amountMicros)} USD of credit`,
        amountMicros,
        credentialId: agent.credentialId,
      });
      const planBlock = { plan: { id: plan.id, slug: plan.slug, name: plan.name, meters: plan.meterKeys }, amountUsd: microsToCents(amountMicros) };
      const challenge = {
        detail: `${microsToCents(amountMicros)} USD of credit on ${plan.name}: pay this 402 on one of its rails and retry the same request with the proof`,
        purchase: { planId: plan.id, kind },
        extraBody: { purchase: planBlock },
      };
      return { type: "paid", call, delivery: grantDelivery, challenge };
    },
    render: (o) => renderPurchase(o, agent, ctx.origin),
    // A replay of a purchase that went through answers what it answered then (the buyer's own, never another's).
    async replay(paymentId) {
      const purchase = await findPlanPurchase(paymentId);
      if (purchase?.credentialId !== agent.credentialId) return null;
      const result = await purchaseResult(paymentId, agent, purchase.payment.rail, purchase.payment.transaction);
      return result ? json(result, { headers: { "cache-control": "no-store", "svc-payment-id": paymentId } }) : null;
    },
  });
}

/** A charged purchase answers its grant and the plan's balance; one still settling, where to watch it. */
async function renderPurchase(o: PaidOutcome, agent: AgentPrincipal, origin: string): Promise<Response> {
  if (o.type === "charged") {
    const result = await purchaseResult(o.hold.payment.id, agent, o.hold.rail, o.transaction);
    return json(result, { headers: { ...o.receipt, "cache-control": "no-store", "svc-payment-id": o.hold.payment.id } });
  }
  if (o.type === "settlement_pending")
    // Served nothing yet: the credit is made when the charge confirms (the reconciler finishes it).
    return json(
      { status: "pending", payment: { id: o.hold.payment.id, rail: o.hold.rail }, statusUrl: `${origin}/payments/${o.hold.payment.id}` },
      { status: 202, headers: { "cache-control": "no-store", "svc-payment-id": o.hold.payment.id } },
    );
  return renderOutcome(o);
}
