// Which card processor runs: Stripe when STRIPE_SECRET_KEY is set, otherwise the built-in test processor. A payment
// stays with the processor that took it (its card row says which), so refunds and reconciliation of earlier payments
// keep working after the configuration changes.
import { env } from "../../../../env";
import type { CardProcessor, ProcessorKind } from "./processor";
import { stripeProcessor } from "./stripe-processor";
import { testProcessor } from "./test-processor";

/** The processor new card payments go to. */
export function cardProcessor(): CardProcessor {
  return env().STRIPE_SECRET_KEY ? stripeProcessor : testProcessor;
}

/** The processor that took a payment. */
export function processorFor(kind: string): CardProcessor {
  const p: Record<ProcessorKind, CardProcessor> = { stripe: stripeProcessor, test: testProcessor };
  const found = p[kind as ProcessorKind];
  if (!found) throw new Error(`no card processor "${kind}"`);
  return found;
}

/** The Stripe profile the MPP card method's tokens are scoped to; null: the method is not offered (Stripe without one). */
export function cardNetworkId(): string | null {
  const e = env();
  return e.STRIPE_NETWORK_ID ?? (e.STRIPE_SECRET_KEY ? null : "profile_test_storefront");
}
