// What a facilitator answers, local or remote. Outcomes are values; only programming errors throw.
import type { PaymentPayload, PaymentRequirements, SupportedResponse } from "@x402/core/types";

export type VerifyOutcome = { type: "valid"; payer: string } | { type: "invalid"; reason: string; message?: string } | { type: "unavailable"; detail: string };
export type SettleOutcome =
  /** gasCostWei: what the facilitator's gas wallet paid for the transaction, when it saw the receipt (local only). */
  | { type: "settled"; transaction: string; payer: string; gasCostWei?: bigint }
  /** Definitive: this authorization will never settle (insufficient funds, used elsewhere, expired, reverted). */
  | { type: "failed"; reason: string; message?: string; transaction?: string }
  /** Transient (RPC or facilitator unreachable, receipt not yet seen): retry later. */
  | { type: "pending"; detail: string; transaction?: string };

export type SettleOptions = { onSubmitted?: (transaction: string | null) => void };

export interface Facilitator {
  readonly kind: "local" | "remote";
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  /**
   * `onSubmitted`: told the transaction's hash once it is signed and about to be sent (null where the facilitator
   * cannot know it before it answers), so a caller may answer before inclusion.
   */
  settle(payload: PaymentPayload, requirements: PaymentRequirements, opts?: SettleOptions): Promise<SettleOutcome>;
  supported(): Promise<SupportedResponse>;
}

// Failures that say nothing about the authorization itself: the RPC was unreachable, or the gas wallet's nonce
// raced another sender (several instances sharing one gas wallet). Those settlements are retried.
export const TRANSIENT =
  /HTTP request failed|fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|timed? ?out|socket|network|nonce too low|nonce has already been used|replacement transaction underpriced|already known/i;
