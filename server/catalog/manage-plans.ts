// A seller's plans and meters from the console: create a credit plan, change its terms, retire it, and change a
// meter's free included units. Each change is one transaction in catalog.queries.ts (the rows, the audit row and the
// catalog version bump), so the manifest, OpenAPI and the gateway see it on the next request on every instance. The
// seller id comes from the session (sellerProcedure): another seller's plan or meter id matches nothing.
import { z } from "zod";
import { AppError } from "../errors";
import { CARD_MINIMUM_MICROS, isWholeCents, microsToCents, microsToUsd, parseUsd } from "../lib/money";
import { newId } from "../lib/ids";
import { parseWith } from "../validation";
import { findSellerPlans, insertPlan, retirePlanRow, updateMeterRow, updatePlanRow, type PlanChange, type PlanFields } from "./catalog.queries";
import { invalidateSeller } from "./resolve-seller";

// The most one purchase may be: a console guard against a typo of a few zeros, not a business rule.
const MAX_PURCHASE_MICROS = 10_000_000_000n; // $10,000

const usd = z.string().trim().min(1).max(32);

export const planTermsInput = z.object({
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(500).default(""),
  minimumUsd: usd,
  maximumUsd: usd,
  cardMinimumUsd: usd,
  creditValidityDays: z.number().int().min(1).max(3650),
  /** Meter keys the plan's credit pays for. */
  meters: z.array(z.string().min(1).max(64)).min(1, "a plan covers at least one meter").max(100),
});

export const createPlanInput = planTermsInput.extend({
  // The plan's name in URLs (/plans/{slug}/purchase): kept for good, even once retired.
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/, "slug: lowercase letters, digits and dashes, 1 to 48 characters")
    .refine((s) => !s.startsWith("pln"), "slug: must not look like a plan id (pln...)"),
});

export const updateMeterInput = z.object({
  meterId: z.string().min(1).max(64),
  title: z.string().trim().min(1).max(80),
  includedUnits: z.number().int().min(0).max(1_000_000),
});

type Actor = { sellerId: string; actorId: string | null };

const invalid = (parameter: string, detail: string) => new AppError("invalid_request", { detail, extra: { parameter } });

function cents(value: string, field: string): bigint {
  const micros = parseUsd(value);
  if (micros === null || !isWholeCents(micros) || micros <= 0n) throw invalid(field, `${field} must be a positive whole-cent amount such as "5.00"`);
  return micros;
}

/** The terms as stored, checked against each other: min <= max <= $10,000 and $0.50 <= card minimum <= max. */
function planFields(input: z.infer<typeof planTermsInput>): PlanFields {
  const minimumMicros = cents(input.minimumUsd, "minimumUsd");
  const maximumMicros = cents(input.maximumUsd, "maximumUsd");
  const cardMinimumMicros = cents(input.cardMinimumUsd, "cardMinimumUsd");
  if (maximumMicros > MAX_PURCHASE_MICROS) throw invalid("maximumUsd", `maximumUsd must be at most ${microsToCents(MAX_PURCHASE_MICROS)}`);
  if (minimumMicros > maximumMicros) throw invalid("minimumUsd", "minimumUsd must not be above maximumUsd");
  if (cardMinimumMicros < CARD_MINIMUM_MICROS)
    throw invalid("cardMinimumUsd", `cardMinimumUsd must be at least ${microsToCents(CARD_MINIMUM_MICROS)} (the card processor's minimum charge)`);
  if (cardMinimumMicros > maximumMicros) throw invalid("cardMinimumUsd", "cardMinimumUsd must not be above maximumUsd");
  return {
    name: input.name,
    description: input.description,
    minimumMicros,
    maximumMicros,
    cardMinimumMicros,
    creditValidityDays: input.creditValidityDays,
    meterKeys: [...new Set(input.meters)],
  };
}

function outcome(change: PlanChange, sellerId: string) {
  switch (change.type) {
    case "done":
      // Other instances hear of it from PostgreSQL (catalog_changed); this one need not wait for the notification.
      invalidateSeller(sellerId);
      return { planId: change.planId };
    case "not_found":
      throw new AppError("plan_not_found", { detail: "no such credit plan at this storefront" });
    case "unknown_meters":
      throw invalid("meters", `no meter ${change.keys.map((k) => `"${k}"`).join(", ")} at this storefront`);
    case "unpriced_meters":
      throw invalid(
        "meters",
        `${change.keys.map((k) => `"${k}"`).join(", ")} ${change.keys.length === 1 ? "has" : "have"} no per-request price: credit is drawn at the per-request price, so there is nothing for it to pay`,
      );
    case "conflict":
      throw new AppError("catalog_conflict", { detail: change.detail });
  }
}

export async function createPlan(actor: Actor, input: z.input<typeof createPlanInput>) {
  const parsed = parseWith(createPlanInput, input);
  const fields = planFields(parsed);
  return outcome(await insertPlan({ ...actor, id: newId("pln"), slug: parsed.slug, fields }), actor.sellerId);
}

export async function updatePlan(actor: Actor, planId: string, input: z.input<typeof planTermsInput>) {
  const fields = planFields(parseWith(planTermsInput, input));
  return outcome(await updatePlanRow({ ...actor, planId, fields }), actor.sellerId);
}

/** Idempotent: retiring a retired plan changes nothing and says so. */
export async function retirePlan(actor: Actor, planId: string) {
  const res = await retirePlanRow({ ...actor, planId });
  if (res.type === "already_retired") return { planId, alreadyRetired: true };
  return { ...outcome(res, actor.sellerId), alreadyRetired: false };
}

export async function updateMeter(actor: Actor, input: z.input<typeof updateMeterInput>) {
  const parsed = parseWith(updateMeterInput, input);
  const res = await updateMeterRow({ ...actor, ...parsed });
  if (!res) throw new AppError("not_found", { detail: "no such meter" });
  invalidateSeller(actor.sellerId);
  return { meter: res.meterKey };
}

/** Every plan of the seller for the console, retired ones too, with the credit bought on each that is still live. */
export async function listSellerPlans(sellerId: string) {
  const plans = await findSellerPlans(sellerId);
  return plans.map((p) => ({
    id: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    kind: p.kind,
    status: p.status,
    meters: p.meterKeys,
    minimumUsd: p.minimumMicros != null ? microsToCents(p.minimumMicros) : null,
    maximumUsd: p.maximumMicros != null ? microsToCents(p.maximumMicros) : null,
    cardMinimumUsd: p.cardMinimumMicros != null ? microsToCents(p.cardMinimumMicros) : null,
    creditValidityDays: p.creditValidityDays,
    liveCreditUsd: microsToUsd(p.liveCreditMicros),
    purchasedUsd: microsToUsd(p.purchasedMicros),
    holders: p.holders,
  }));
}

/**
 * What a change of a credit plan's terms would do, before it is made: each term before and after (as the console
 * shows them), the meters added or removed, the credit already bought on it (kept: a change applies to the next
 * purchase), and whether the change would be refused (a meter taken from a plan whose bought credit is live). Reads only.
 */
export async function previewPlanChange(actor: Actor, planId: string, input: z.input<typeof planTermsInput>) {
  const next = planFields(parseWith(planTermsInput, input));
  const plan = (await findSellerPlans(actor.sellerId)).find((p) => p.id === planId && p.kind === "credit");
  if (!plan) throw new AppError("plan_not_found", { detail: "no such credit plan at this storefront" });
  const money = (m: bigint | null) => (m === null ? "—" : `$${microsToCents(m)}`);
  const terms: { field: string; label: string; before: string; after: string }[] = [
    { field: "name", label: "Name", before: plan.name, after: next.name },
    { field: "description", label: "Description", before: plan.description || "—", after: next.description || "—" },
    { field: "minimumUsd", label: "Minimum purchase", before: money(plan.minimumMicros), after: money(next.minimumMicros) },
    { field: "maximumUsd", label: "Maximum purchase", before: money(plan.maximumMicros), after: money(next.maximumMicros) },
    { field: "cardMinimumUsd", label: "Card minimum", before: money(plan.cardMinimumMicros), after: money(next.cardMinimumMicros) },
    { field: "creditValidityDays", label: "Credit lasts", before: `${plan.creditValidityDays} days`, after: `${next.creditValidityDays} days` },
    { field: "meters", label: "Meters covered", before: plan.meterKeys.join(", "), after: [...next.meterKeys].sort().join(", ") },
  ];
  const removed = plan.meterKeys.filter((k) => !next.meterKeys.includes(k));
  const live = plan.liveCreditMicros > 0n;
  return {
    plan: { id: plan.id, slug: plan.slug, name: plan.name },
    changes: terms.filter((t) => t.before !== t.after),
    metersAdded: next.meterKeys.filter((k) => !plan.meterKeys.includes(k)).sort(),
    metersRemoved: removed,
    liveCreditUsd: microsToUsd(plan.liveCreditMicros),
    holders: plan.holders,
    blocked:
      removed.length > 0 && live ? `${plan.holders} credential(s) hold live credit on this plan, so ${removed.join(", ")} cannot be taken from it` : null,
  };
}
