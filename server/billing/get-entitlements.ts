// GET /agent/entitlements: who the bearer is, which credentials share its entitlements, the plans it holds credit
// on (balance, what was bought, each grant with its source payment and expiry), and the free included units left
// to its human. Amounts are USD strings with six decimals. A plan's balance counts the credit instances hold in leases
// (not spent yet); `heldByInstances` says how much of it that is, per plan (server/payments/rails/credits, "Leased credit").
import type { Catalog } from "../catalog/catalog";
import { findLinkedCredentials } from "../identity/find-linked-credentials";
import type { AgentPrincipal } from "../identity/require-agent";
import { microsToUsd } from "../lib/money";
import { findGrantsWithPlans, findIncludedUsage, type GrantWithPlan } from "./billing.queries";

export type PlanBalance = {
  id: string;
  slug: string;
  name: string;
  status: string;
  meters: string[];
  balanceUsd: string;
  purchasedUsd: string;
  expiresAt: string;
  grants: { id: string; amountUsd: string; remainingUsd: string; expiresAt: string; sourcePaymentId: string; credential: string }[];
};

export function planBalances(grants: GrantWithPlan[]): PlanBalance[] {
  const byPlan = new Map<string, GrantWithPlan[]>();
  for (const g of grants) byPlan.set(g.planId, [...(byPlan.get(g.planId) ?? []), g]);
  return [...byPlan.values()].map((gs) => {
    const p = gs[0]!.plan;
    return {
      id: p.id,
      slug: p.slug,
      name: p.name,
      status: p.status,
      meters: p.meters,
      balanceUsd: microsToUsd(gs.reduce((s, g) => s + g.remainingMicros, 0n)),
      purchasedUsd: microsToUsd(gs.reduce((s, g) => s + g.amountMicros, 0n)),
      // The last day any of it can still be drawn (each grant lasts the plan's validity from its purchase).
      expiresAt: gs.reduce((m, g) => (g.expiresAt > m ? g.expiresAt : m), gs[0]!.expiresAt).toISOString(),
      grants: gs.map((g) => ({
        id: g.id,
        amountUsd: microsToUsd(g.amountMicros),
        remainingUsd: microsToUsd(g.remainingMicros),
        expiresAt: g.expiresAt.toISOString(),
        sourcePaymentId: g.sourcePaymentId,
        credential: g.credentialId,
      })),
    };
  });
}

/**
 * What the credit held buys, per priced meter: every live grant whose plan covers the meter can pay it (a call's price
 * spans grants, billing.queries.ts `reserveDraw`), so the credit is their sum and the calls it pays at today's price
 * are that sum over the price, rounded down. A grant on a plan covering several meters counts under each.
 */
export function creditPerMeter(grants: GrantWithPlan[], catalog: Pick<Catalog, "meters">) {
  return catalog.meters.flatMap((m) => {
    const price = m.priceMicros;
    if (price == null || price <= 0n) return [];
    const micros = grants.filter((g) => g.plan.meters.includes(m.key)).reduce((sum, g) => sum + g.remainingMicros, 0n);
    return micros > 0n ? [{ meter: m.key, priceUsd: microsToUsd(price), creditUsd: microsToUsd(micros), calls: Number(micros / price) }] : [];
  });
}

/** Per plan, the part of its balance instances hold in leases now (spendable, not yet recorded as spent); only plans with some. */
function heldByInstances(grants: GrantWithPlan[]): { plan: string; heldUsd: string }[] {
  const held = new Map<string, bigint>();
  for (const g of grants) if (g.heldMicros) held.set(g.planId, (held.get(g.planId) ?? 0n) + g.heldMicros);
  return [...held].map(([plan, micros]) => ({ plan, heldUsd: microsToUsd(micros) }));
}

export async function getEntitlements(agent: AgentPrincipal, catalog: Catalog) {
  const { human, credentials } = await findLinkedCredentials(agent);
  const [grants, usage] = await Promise.all([findGrantsWithPlans(agent.sellerId, credentials), human ? findIncludedUsage(agent.sellerId, human.id) : []]);
  // Free units are a claimed human's: a token issued before the claim does not see them (it does not upgrade itself).
  const includedUnits = human
    ? catalog.meters
        .filter((m) => m.includedUnits > 0)
        .map((m) => {
          const used = Math.min(m.includedUnits, usage.find((u) => u.meterKey === m.key)?.used ?? 0);
          return { meter: m.key, included: m.includedUnits, used, left: m.includedUnits - used };
        })
    : [];
  const held = heldByInstances(grants);
  return {
    agent: { id: agent.credentialId, type: agent.kind, claimed: agent.claimed, human },
    credentials,
    plans: planBalances(grants),
    // Only while instances hold some (leases live a few seconds): absent, nothing is held.
    ...(held.length ? { heldByInstances: held } : {}),
    credit: creditPerMeter(grants, catalog),
    includedUnits,
  };
}
