// EIP-3009 TransferWithAuthorization, the signed transfer both wallet rails carry: x402's `exact` scheme and
// MPP's `evm` charge method. Shared here (not in a rail folder) because the lock, the facilitator input and the
// settlement are the same whichever protocol delivered the signature.
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { z } from "zod";
import { NETWORK, USDC_ADDRESS, USDC_DOMAIN } from "../../chain/config";
import { env } from "../../env";
import type { RailPrice } from "../rails/rail";

const hex = (bytes?: number) => z.string().regex(bytes ? new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`) : /^0x[0-9a-fA-F]*$/);
const uint = z.union([z.string().regex(/^\d{1,78}$/), z.number().int().nonnegative()]).transform(String);

export const authorizationSchema = z.object({
  from: hex(20),
  to: hex(20),
  value: uint,
  validAfter: uint,
  validBefore: uint,
  nonce: hex(32),
});
export type Eip3009Authorization = z.infer<typeof authorizationSchema>;
export const signatureSchema = hex();

/** What a wallet rail stores in `railData`: enough to settle after a restart. */
export type StoredAuthorization = {
  signature: string;
  authorization: Eip3009Authorization;
  /** The token's EIP-712 domain and anything else the offer carried (x402 `extra`). */
  extra: Record<string, unknown>;
};

/**
 * The lock key of an authorization: one signed transfer buys one request, whichever protocol carried it. The
 * token contract itself refuses a second use of (from, nonce); this makes the database refuse it first.
 */
export function authorizationLockKey(
  authorization: Pick<Eip3009Authorization, "from" | "nonce">,
  asset: string = USDC_ADDRESS,
  network: string = NETWORK,
): string {
  return `eip3009:${network}:${asset.toLowerCase()}:${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`;
}

/** What both wallet rails charge for a price: USDC on Base, whose 6 decimals make its atomic units micro-USD. */
export function usdcPrice(amountMicros: bigint): RailPrice {
  return { amount: amountMicros.toString(), currency: USDC_ADDRESS, network: NETWORK, asset: USDC_ADDRESS };
}

/** x402 `exact` requirements for USDC on Base: what the facilitator verifies and settles against. */
export function exactRequirements(o: { amountMicros: bigint; payTo: string }, extra: Record<string, unknown> = {}): PaymentRequirements {
  return {
    scheme: "exact",
    network: NETWORK,
    asset: USDC_ADDRESS,
    // USDC has 6 decimals: atomic units equal micro-USD.
    amount: o.amountMicros.toString(),
    payTo: o.payTo,
    maxTimeoutSeconds: env().PAYMENT_CHALLENGE_TTL_SECONDS,
    extra: { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, ...extra },
  };
}

/** The facilitator's input for a stored authorization: lifted into the x402 v2 shape (the EIP-3009 checks are identical). */
export function facilitatorInput(
  p: { amountMicros: bigint; payTo: string | null },
  stored: StoredAuthorization,
): { payload: PaymentPayload; requirements: PaymentRequirements } {
  const requirements = exactRequirements({ amountMicros: p.amountMicros, payTo: p.payTo ?? "" }, stored.extra);
  return { requirements, payload: { x402Version: 2, accepted: requirements, payload: { signature: stored.signature, authorization: stored.authorization } } };
}
