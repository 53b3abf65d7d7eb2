// A payment's name at the card processor. Stripe takes a client_reference_id of at most 200 characters, metadata
// values of at most 500 and idempotency keys of at most 255 (docs.stripe.com: Checkout's client reference,
// /api/metadata, /api/idempotent_requests); a payment born from a signed challenge id (docs/challenges.md) has an id of
// about 230 characters, more with a long query. A short id is sent as it is (so payments from before keep their
// names); a longer one as a digest, kept on the card row (`card_payments.processor_ref`) so a webhook finds it.
import { createHash } from "node:crypto";

/** Ids up to this length go to the processor unchanged; with a suffix such as `:confirm:12` they stay far under 255. */
const MAX_AS_IS = 64;
const DIGEST_PREFIX = "payref_";

export function processorReference(paymentId: string): string {
  if (paymentId.length <= MAX_AS_IS) return paymentId;
  return `${DIGEST_PREFIX}${createHash("sha256").update(paymentId).digest("base64url").slice(0, 32)}`;
}

/** Whether a processor's reference is a digest (found through the card row) rather than the payment id itself. */
export function isReferenceDigest(reference: string): boolean {
  return reference.startsWith(DIGEST_PREFIX);
}
