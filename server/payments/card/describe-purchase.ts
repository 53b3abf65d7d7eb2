// What a card payment buys, in words a human checks before paying: the operation's summary and the exact request, or
// (for a plan purchase, which pays the same way) the plan's name. Read from the seller's catalog, never from the client.
import type { Catalog } from "../../catalog/catalog";

export type Purchase = { title: string; detail: string; kind: "call" | "plan" };

export function describePurchase(catalog: Catalog, p: { operationKey: string; method: string; path: string; query: string }): Purchase {
  const request = `${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`;
  const planId = /^\/plans\/([^/]+)\/purchase$/.exec(p.path)?.[1];
  const plan = planId ? catalog.plans.find((x) => x.id === decodeURIComponent(planId) || x.slug === decodeURIComponent(planId)) : undefined;
  if (plan) return { kind: "plan", title: `Plan: ${plan.name}`, detail: plan.description || request };
  const op = catalog.operations.find((o) => o.key === p.operationKey);
  return { kind: "call", title: op?.summary ?? p.operationKey, detail: request };
}
