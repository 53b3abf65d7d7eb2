// The 402 for an unpaid priced call: a payment record in state `challenged`, signed and bound to the request.
import { NETWORK, USDC_ADDRESS } from "../chain/config";
import { env } from "../env";
import { canonicalQuery } from "../lib/canonical-query";
import { newId } from "../lib/ids";
import { cardEligible, microsToUsd } from "../lib/money";
import { signChallenge } from "./challenge";
import { encodeBase64Json, paymentRequiredV1, paymentRequiredV2, type Offer } from "./offer";
import { createChallengedPayment } from "./payments.queries";
import type { PricedRequest } from "./priced-request";

export type ChallengeInput = PricedRequest & { serviceSlug: string; summary: string; origin: string };

export type Challenge = { paymentId: string; body: Record<string, unknown>; headers: Record<string, string> };

export async function createChallenge(c: ChallengeInput): Promise<Challenge> {
  const e = env();
  const paymentId = newId("pay");
  const query = canonicalQuery(c.query);
  const expiresAt = Math.floor(Date.now() / 1000) + e.PAYMENT_CHALLENGE_TTL_SECONDS;
  await createChallengedPayment({
    id: paymentId,
    sellerId: c.sellerId,
    method: c.method,
    path: c.path,
    query,
    operationKey: c.operationKey,
    meterKey: c.meterKey,
    amountMicros: c.amountMicros,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payTo: c.payTo,
    expiresAt: new Date(expiresAt * 1000),
  });
  const challenge = signChallenge({
    paymentId,
    sellerId: c.sellerId,
    method: c.method,
    path: c.path,
    query,
    amountMicros: c.amountMicros,
    payTo: c.payTo,
    expiresAt,
  });
  const offer: Offer = {
    paymentId,
    amountMicros: c.amountMicros,
    payTo: c.payTo,
    challenge,
    expiresAt,
    resourceUrl: `${c.origin}${c.path}${query ? `?${query}` : ""}`,
    description: c.summary,
    maxTimeoutSeconds: e.PAYMENT_CHALLENGE_TTL_SECONDS,
  };
  const body: Record<string, unknown> = {
    error: "payment_required",
    detail: `this call costs ${microsToUsd(c.amountMicros)} USD; pay the x402 offer and retry with the proof in X-PAYMENT (or PAYMENT-SIGNATURE)`,
    payment: {
      id: paymentId,
      amount: microsToUsd(c.amountMicros),
      amount_micros: c.amountMicros.toString(),
      currency: "USD",
      method: c.method,
      path: c.path,
      query,
      operation: c.operationKey,
      meter: c.meterKey,
      service: c.serviceSlug,
      access: "payg",
      expires_at: new Date(expiresAt * 1000).toISOString(),
    },
    ...(cardEligible(c.amountMicros) ? { card: { payUrl: `${c.origin}/payments/${paymentId}/pay`, statusUrl: `${c.origin}/payments/${paymentId}` } } : {}),
    ...paymentRequiredV1(offer),
  };
  return {
    paymentId,
    body,
    headers: { "PAYMENT-REQUIRED": encodeBase64Json(paymentRequiredV2(offer)), "cache-control": "no-store", "svc-payment-id": paymentId },
  };
}
