// What a card payment buys, in words a human checks before paying: the operation's summary and the exact request, or
// (for a plan purchase, which pays the same way) the plan's name. Read from the seller's catalog, never from the client.
import type { Catalog } from "../../../../catalog/catalog";

export type Purchase = { title: string; detail: string; kind: "call" | "plan" };

export function describePurchase(catalog: Catalog, p: { operationKey: string; method: string; path: string; query: string }): Purchase {
  const request = `${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`;
  // A purchase or top-up is bound to its plan through the query (server/gateway/handle-plan-purchase.ts).
  const planId = p.operationKey === "plan_purchase" || p.operationKey === "plan_extend" ? new URLSearchParams(p.query).get("plan") : null;
  const plan = planId ? catalog.plans.find((x) => x.id === planId) : undefined;
  if (plan)
    return {
      kind: "plan",
      title: `${p.operationKey === "plan_extend" ? "Top-up" : "Plan"}: ${plan.name}`,
      detail: plan.description || "prepaid credit, drawn down by calls at the per-request prices",
    };
  const op = catalog.operations.find((o) => o.key === p.operationKey);
  return { kind: "call", title: op?.summary ?? p.operationKey, detail: request };
}
