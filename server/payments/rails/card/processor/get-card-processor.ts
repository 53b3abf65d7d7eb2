// Which card processor runs: Stripe when STRIPE_SECRET_KEY is set; the built-in test processor only when
// CARD_TEST_PROCESSOR names it (the demo, the tests); otherwise none, and the card rail is not offered. A payment stays
// with the processor that took it (its card row says which), so refunds and reconciliation of earlier payments keep
// working after the configuration changes.
import { env } from "../../../../env";
import { AppError } from "../../../../errors";
import type { CardProcessor, ProcessorKind } from "./processor";
import { stripeProcessor } from "./stripe-processor";
import { testProcessor } from "./test-processor";

/** The processor new card payments go to, or null when none is configured (the card rail is then not offered). */
export function configuredCardProcessor(): CardProcessor | null {
  const e = env();
  if (e.STRIPE_SECRET_KEY) return stripeProcessor;
  return e.CARD_TEST_PROCESSOR ? testProcessor : null;
}

/** Whether this deployment takes card payments at all. */
export function cardPaymentsOffered(): boolean {
  return configuredCardProcessor() !== null;
}

export const CARD_NOT_OFFERED =
  "this storefront takes no card payments (no card processor is configured: STRIPE_SECRET_KEY, or CARD_TEST_PROCESSOR for tests); pay with a wallet rail";

/** The processor new card payments go to; AppError card_payments_unavailable when none is configured. */
export function cardProcessor(): CardProcessor {
  const p = configuredCardProcessor();
  if (!p) throw new AppError("card_payments_unavailable", { detail: CARD_NOT_OFFERED });
  return p;
}

/** The processor that took a payment. */
export function processorFor(kind: string): CardProcessor {
  const p: Record<ProcessorKind, CardProcessor> = { stripe: stripeProcessor, test: testProcessor };
  const found = p[kind as ProcessorKind];
  if (!found) throw new Error(`no card processor "${kind}"`);
  return found;
}

/** The Stripe profile the MPP card method's tokens are scoped to; null: the method is not offered (Stripe without one, or no processor). */
export function cardNetworkId(): string | null {
  const e = env();
  if (e.STRIPE_SECRET_KEY) return e.STRIPE_NETWORK_ID ?? null;
  return e.CARD_TEST_PROCESSOR ? (e.STRIPE_NETWORK_ID ?? "profile_test_storefront") : null;
}

/**
 * Which processor takes new card payments, as the console's Settings and setup checklist say it: Stripe (live, or test
 * mode by its key), the built-in test processor, or none (the card rail is not offered). Never the key itself.
 */
export type CardProcessorStatus = { processor: "stripe"; mode: "live" | "test" } | { processor: "test" } | { processor: "none" };

export function cardProcessorStatus(): CardProcessorStatus {
  const e = env();
  if (e.STRIPE_SECRET_KEY) return { processor: "stripe", mode: e.STRIPE_SECRET_KEY.includes("_test_") ? "test" : "live" };
  return e.CARD_TEST_PROCESSOR ? { processor: "test" } : { processor: "none" };
}

/** One line for start-up: which processor takes card payments, or that none does. */
export function describeCardProcessor(): string {
  const s = cardProcessorStatus();
  if (s.processor === "stripe") return `card payments: Stripe (${s.mode === "test" ? "test mode" : "live"})`;
  if (s.processor === "test") return "card payments: the built-in TEST processor (CARD_TEST_PROCESSOR=on): test cards only, no real money moves";
  return "card payments: off (no card processor: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or CARD_TEST_PROCESSOR=on for tests); the card rail is not offered";
}
