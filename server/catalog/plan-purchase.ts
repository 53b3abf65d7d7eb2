// POST /plans/{planId}/purchase and /extend, up to the point this release supports: the plan lookup and the
// amount rules of SERVICE.md part 7 are enforced; taking the money (credit balances) arrives with the plans
// work, so a valid request answers 501 not_implemented and nothing is charged.
import { z } from "zod";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { CARD_MINIMUM_MICROS, isWholeCents, microsToCents, parseUsd } from "../lib/money";
import type { Catalog, CatalogPlan } from "./catalog";

export const purchaseBody = z.object({
  amountUsd: z.string().max(32).optional(),
  checkout: z.boolean().optional(),
});

export function findPlan(catalog: Catalog, planId: string): CatalogPlan {
  const plan = catalog.plans.find((p) => p.id === planId || p.slug === planId);
  if (!plan) throw new AppError("plan_not_found", { detail: `no plan "${planId}"; use an id from /manifest.json` });
  return plan;
}

/** The amount rules of a credit plan purchase; returns the amount in micros. */
export function checkPurchaseAmount(plan: CatalogPlan, body: z.infer<typeof purchaseBody>): bigint {
  if (plan.kind === "payg") throw new AppError("payg_not_purchasable", { detail: "pay-as-you-go needs no purchase: pay each request" });
  if (body.amountUsd === undefined) throw new AppError("amount_required", { detail: 'credit plans need amountUsd (a whole-cent decimal such as "25.00")' });
  const micros = parseUsd(body.amountUsd);
  if (micros === null || !isWholeCents(micros))
    throw new AppError("amount_not_cent_increment", { detail: 'amountUsd must be a whole-cent decimal such as "25.00"' });
  if (plan.minimumMicros != null && micros < plan.minimumMicros)
    throw new AppError("amount_below_minimum", {
      detail: `minimum is ${microsToCents(plan.minimumMicros)}`,
      extra: { minimumUsd: microsToCents(plan.minimumMicros) },
    });
  if (plan.maximumMicros != null && micros > plan.maximumMicros)
    throw new AppError("amount_above_maximum", {
      detail: `maximum is ${microsToCents(plan.maximumMicros)}; buy up to it and top up later`,
      extra: { maximumUsd: microsToCents(plan.maximumMicros) },
    });
  const cardMin = plan.cardMinimumMicros ?? CARD_MINIMUM_MICROS;
  if (body.checkout && micros < cardMin)
    throw new AppError("amount_below_card_minimum", {
      detail: `card payments start at ${microsToCents(cardMin)}`,
      extra: { cardMinimumUsd: microsToCents(cardMin) },
    });
  return micros;
}

export function purchaseNotAvailable(): never {
  throw new AppError("not_implemented", {
    detail: "plan purchases and top-ups are not available on this storefront yet; pay-as-you-go works on every priced operation",
  });
}

export function parsePurchaseBody(input: unknown) {
  return parseWith(purchaseBody, input);
}
