// What a 402 offers on x402: the `exact` scheme on Base for USDC at the seller's payTo, for the operation's price.
// The same offer is sent twice, because real clients read it in different places: the body carries
// `x402Version: 1` + `accepts` (v1 clients), the PAYMENT-REQUIRED header carries base64 JSON x402 v2 (the
// official @x402/fetch client). `extra` carries the token's EIP-712 domain plus our signed challenge, which a
// v2 client echoes back in `accepted` so the proof can be checked against the request it was made for.
import type { PaymentRequired } from "@x402/core/types";
import type { PaymentRequirementsV1 } from "@x402/core/types/v1";
import { NETWORK, NETWORK_V1, USDC_ADDRESS, USDC_DOMAIN } from "../../../chain/config";
import { env } from "../../../env";
import { exactRequirements } from "../../eip3009/authorization";
import type { ChallengeRef, PaidCall, RailOffer } from "../rail";
import { signChallenge } from "./challenge-token";

export type Offer = {
  paymentId: string;
  amountMicros: bigint;
  payTo: string;
  challenge: string;
  /** Unix seconds. */
  expiresAt: number;
  resourceUrl: string;
  description: string;
  maxTimeoutSeconds: number;
  /** Why the proof this offer answers was refused (x402's PaymentRequired `error`), if it answers one. */
  refused?: string;
};

export function offerExtra(o: Pick<Offer, "paymentId" | "challenge" | "expiresAt">): Record<string, unknown> {
  return { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, paymentId: o.paymentId, challenge: o.challenge, expiresAt: o.expiresAt };
}

function requirementsV1(o: Offer, network: string): PaymentRequirementsV1 & { amount: string } {
  return {
    scheme: "exact",
    network: network as PaymentRequirementsV1["network"],
    maxAmountRequired: o.amountMicros.toString(),
    amount: o.amountMicros.toString(),
    resource: o.resourceUrl,
    description: o.description,
    mimeType: "application/json",
    outputSchema: {},
    payTo: o.payTo,
    maxTimeoutSeconds: o.maxTimeoutSeconds,
    asset: USDC_ADDRESS,
    extra: offerExtra(o),
  };
}

export function paymentRequiredV2(o: Offer): PaymentRequired {
  return {
    x402Version: 2,
    error: o.refused ?? "payment_required",
    resource: { url: o.resourceUrl, description: o.description, mimeType: "application/json" },
    accepts: [exactRequirements(o, offerExtra(o))],
  };
}

/**
 * The body's v1 view. The CAIP-2 network comes first (SERVICE.md names eip155:8453); the same offer under the
 * v1 network name "base" follows, because v1 client libraries only recognise names.
 */
export function paymentRequiredV1(o: Offer) {
  return { x402Version: 1 as const, accepts: [requirementsV1(o, NETWORK), requirementsV1(o, NETWORK_V1)] };
}

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}

/** The x402 part of a 402: the v1 body and the v2 PAYMENT-REQUIRED header, both carrying our signed challenge. */
export function offerX402(call: PaidCall, challenge: ChallengeRef): RailOffer {
  const { paymentId, expiresAt, refused } = challenge;
  const token = signChallenge({
    paymentId,
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    amountMicros: call.amountMicros,
    payTo: call.payTo,
    expiresAt,
  });
  const offer: Offer = {
    paymentId,
    amountMicros: call.amountMicros,
    payTo: call.payTo,
    challenge: token,
    expiresAt,
    resourceUrl: `${call.origin}${call.path}${call.canonicalQuery ? `?${call.canonicalQuery}` : ""}`,
    description: call.summary,
    maxTimeoutSeconds: env().PAYMENT_CHALLENGE_TTL_SECONDS,
    refused,
  };
  return { body: paymentRequiredV1(offer), headers: [["PAYMENT-REQUIRED", encodeBase64Json(paymentRequiredV2(offer))]] };
}
