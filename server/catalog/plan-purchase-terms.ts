// What a credit plan sells at, in dollars: the manifest's `purchase`, OpenAPI's `x-plans`, llms.txt's plan lines and
// the plan events all state these same terms. A function of the catalog's plan, so it lives with the catalog.
import { CARD_MINIMUM_MICROS, microsToCents } from "../lib/money";
import type { CatalogPlan } from "./catalog";

export function planPurchaseTerms(p: Pick<CatalogPlan, "minimumMicros" | "maximumMicros" | "cardMinimumMicros" | "creditValidityDays">) {
  return {
    minimumUsd: p.minimumMicros != null ? microsToCents(p.minimumMicros) : null,
    maximumUsd: p.maximumMicros != null ? microsToCents(p.maximumMicros) : null,
    cardMinimumUsd: microsToCents(p.cardMinimumMicros ?? CARD_MINIMUM_MICROS),
    creditValidityDays: p.creditValidityDays,
  };
}
