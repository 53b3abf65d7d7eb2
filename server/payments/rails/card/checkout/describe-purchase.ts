// What a card payment buys, in words a human checks before paying: the operation's summary and the exact request, or
// (for a plan purchase, which pays the same way) what the plan buys: how much credit, for which data, for how long,
// and whether it dies with an unclaimed agent. Read from the seller's catalog, never from the client.
import type { Catalog } from "../../../../catalog/catalog";
import { microsToUsd } from "../../../../lib/money";

export type PlanTerms = {
  name: string;
  description: string;
  /** Credit equals what is paid (a dollar of credit per dollar). */
  creditUsd: string;
  /** The meters the credit pays for, with the operations each prices. */
  meters: { key: string; title: string; operations: string[] }[];
  validityDays: number;
  /** The buying agent is not claimed by a person: its credit dies with it at this instant (unless it is claimed first). */
  unclaimedAgentExpiresAt: string | null;
  /** Whether the buying agent is claimed by a person (null: not known, e.g. the credential is gone). */
  agentClaimed: boolean | null;
};

export type Purchase = { title: string; detail: string; kind: "call" | "plan"; plan: PlanTerms | null };

/** The buying agent, for a plan purchase: claimed by a person, or unclaimed and dying at `expiresAt`. */
export type BuyingAgent = { status: string; expiresAt: Date | null } | null;

/** The agent credential a plan purchase is bound to (the gateway binds it through the query), if any. */
export function purchasingCredential(p: { operationKey: string; query: string }): string | null {
  return isPlanPayment(p.operationKey) ? new URLSearchParams(p.query).get("credential") : null;
}

const isPlanPayment = (operationKey: string) => operationKey === "plan_purchase" || operationKey === "plan_extend";

export function describePurchase(
  catalog: Catalog,
  p: { operationKey: string; method: string; path: string; query: string; amountMicros?: bigint },
  agent: BuyingAgent = null,
): Purchase {
  const request = `${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`;
  // A purchase or top-up is bound to its plan through the query (server/gateway/handle-plan-purchase.ts).
  const planId = isPlanPayment(p.operationKey) ? new URLSearchParams(p.query).get("plan") : null;
  const plan = planId ? catalog.plans.find((x) => x.id === planId) : undefined;
  if (plan) {
    const meters = plan.meterKeys.map((key) => ({
      key,
      title: catalog.meters.find((m) => m.key === key)?.title ?? key,
      operations: catalog.operations.filter((o) => o.meter?.key === key).map((o) => o.summary),
    }));
    return {
      kind: "plan",
      title: `${p.operationKey === "plan_extend" ? "Top-up" : "Plan"}: ${plan.name}`,
      detail: plan.description || "prepaid credit, drawn down by calls at the per-request prices",
      plan: {
        name: plan.name,
        description: plan.description,
        creditUsd: p.amountMicros === undefined ? "" : microsToUsd(p.amountMicros),
        meters,
        validityDays: plan.creditValidityDays,
        unclaimedAgentExpiresAt: agent && agent.status !== "claimed" && agent.expiresAt ? agent.expiresAt.toISOString() : null,
        agentClaimed: agent ? agent.status === "claimed" : null,
      },
    };
  }
  const op = catalog.operations.find((o) => o.key === p.operationKey);
  return { kind: "call", title: op?.summary ?? p.operationKey, detail: request, plan: null };
}
