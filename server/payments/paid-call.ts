// The priced call every rail is asked to pay: a leaf module (it imports nothing), so the payments domain, its queries
// and every rail can share it without importing each other.

/** How a paid call reached us: the HTTP API, or a tool call at /mcp (the console tells them apart). */
export const TRANSPORTS = ["http", "mcp"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/**
 * One priced call, assembled once per request (server/gateway/paid-call.ts: a data call, a plan purchase or top-up,
 * the $0 quote) and carried through every step: nothing below recomputes the canonical query, the price or the binding.
 */
export type PaidCall = {
  /** A data call (proxied to the upstream), or a plan purchase / top-up (credits a grant when charged). */
  purpose: "call" | "purchase";
  sellerId: string;
  /** The seller's payout address (wallet rails pay it). */
  payTo: string;
  /** Public origin for links (`https://host`), and the host alone (the MPP realm). */
  origin: string;
  realm: string;
  method: string;
  path: string;
  canonicalQuery: string;
  operationKey: string;
  meterKey: string | null;
  /** The meter's free units per claimed human (0: none). */
  includedUnits: number;
  serviceSlug: string;
  summary: string;
  /** The price in micro-USD; each rail converts it into what it charges (`Rail.price`). */
  amountMicros: bigint;
  /**
   * sha256 over seller, method, path and canonical query: what a proof must have been made for. Rails that carry
   * opaque data through the client (MPP) bind their challenge to it; the challenge HMAC keeps it honest.
   */
  binding: string;
  /** Purchases only: the buyer's agent credential the payment is bound to (the plan is bought for it). */
  credentialId?: string;
  /** Absent: HTTP. Recorded on the payment row wherever the row is written (requestFields; a credit draw). */
  transport?: Transport;
};

/** What a payment row records of the call it pays for: who sells it, what exactly was asked, what it costs, who is paid. */
export function requestFields(call: PaidCall) {
  return {
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    operationKey: call.operationKey,
    meterKey: call.meterKey,
    amountMicros: call.amountMicros,
    payTo: call.payTo,
    transport: call.transport ?? "http",
  };
}
