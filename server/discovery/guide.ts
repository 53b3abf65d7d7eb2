// The free advisor: which operations and plans fit a goal (GET /vendor/agent/guide, and the $0 quote).
// It recommends and estimates; it never buys anything.
import { advisorGuideResponse } from "../contracts/operations";
import type { z } from "zod";
import type { Catalog } from "../catalog/catalog";
import { microsToUsd } from "../lib/money";
import { RAILS } from "../payments/rails";
import { listDiscoverable } from "./discoverable";
import { selectOperations } from "./openapi";

export type Guide = z.infer<typeof advisorGuideResponse>;

export function buildGuide(catalog: Catalog, goal: string, origin: string): Guide {
  // What is sold, and the data operations given away at $0 (a free listing answers a goal as well as a priced one).
  const sold = listDiscoverable(catalog).filter((o) => o.meter && (o.meter.priceMicros > 0n || o.kind === "data"));
  const ranked = selectOperations(sold, { q: goal }).slice(0, 3);
  const recommendations = ranked.map(({ op, score }) => ({
    operation: op.key,
    method: op.method,
    path: op.path,
    service: op.service.slug,
    summary: op.summary,
    price_usd: microsToUsd(op.meter!.priceMicros),
    meter: op.meter!.key,
    score: score ?? 0,
  }));
  const top = ranked[0]?.op;
  const plans = catalog.plans.filter((p) => !top?.meter || p.meterKeys.includes(top.meter.key)).map((p) => ({ id: p.id, name: p.name, kind: p.kind }));
  return {
    goal,
    recommendations,
    plans,
    steps:
      top && top.meter!.priceMicros === 0n
        ? [
            `Call ${top.method} ${origin}${top.path}: it is free, no payment needed.`,
            `Full description: ${origin}/openapi.json?q=${encodeURIComponent(goal.slice(0, 100))}`,
          ]
        : top
          ? [
              `Call ${top.method} ${origin}${top.path} without payment to get a 402 with a signed challenge.`,
              // Only the rails that take this price (the registry knows which rail has a floor).
              `Pay it on one rail and retry the same request: ${RAILS.filter((r) => r.price(top.meter!.priceMicros) !== null)
                .map((r) => r.howToPay)
                .join("; ")}.`,
              `Full description: ${origin}/openapi.json?q=${encodeURIComponent(goal.slice(0, 100))}`,
            ]
          : [`Nothing in this storefront matches; browse ${origin}/services or ${origin}/openapi.json.`],
    estimated_cost_usd: top ? microsToUsd(top.meter!.priceMicros) : null,
    note: "Advice only: nothing was purchased. Prices come from /manifest.json, which is authoritative.",
  };
}
