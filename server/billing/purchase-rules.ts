// The rules of a plan purchase or top-up (SERVICE.md part 7), checked before any payment: the plan exists and is
// for sale, it is not pay-as-you-go, and `amountUsd` is a whole-cent amount within the plan's bounds (and the card
// floor when paying by card).
import { z } from "zod";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { CARD_MINIMUM_MICROS, isWholeCents, microsToCents, parseUsd } from "../lib/money";
import type { Catalog, CatalogPlan } from "../catalog/catalog";

export const purchaseBody = z.object({
  amountUsd: z.string().max(32).optional(),
  checkout: z.boolean().optional(),
  /** POST /extend: the plan to top up (may be left out when the credential holds credit on exactly one plan). */
  planId: z.string().max(64).optional(),
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

export function parsePurchaseBody(input: unknown) {
  return parseWith(purchaseBody, input);
}
