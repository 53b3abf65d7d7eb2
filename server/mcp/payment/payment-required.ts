// One 402 challenge (server/payments/create-challenge.ts: one payment, every rail's offer) in each MCP binding's terms.
// It reads the challenge as the HTTP renderer writes it, by protocol header, never by rail name:
//   PAYMENT-REQUIRED (x402 v2, base64 JSON)  -> x402's PaymentRequired, the tool result's structured content
//   WWW-Authenticate: Payment (MPP, one per method: evm, stripe)  -> MPP challenges, as JSON objects (request decoded)
// and keeps our own body's fields (payment id, amount, rails, the card block) beside x402's.
import { Challenge as MppChallenge } from "mppx";
import type { Challenge } from "../../payments/create-challenge";

export type McpPaymentRequired = {
  /** The tool result's structured content: x402's PaymentRequired (v2) when x402 is offered, with our 402 body's fields. */
  structured: Record<string, unknown>;
  /** x402's PaymentRequired alone (null when no x402 offer was made). */
  x402: Record<string, unknown> | null;
  /** MPP's challenges (empty when no MPP method was offered). */
  mppChallenges: Record<string, unknown>[];
};

function decodeBase64Json(value: string | null): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const v = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function toMcpPaymentRequired(c: Challenge): McpPaymentRequired {
  const x402 = decodeBase64Json(c.headers.get("payment-required"));
  const mppChallenges = c.headers.has("www-authenticate")
    ? MppChallenge.fromHeadersList(c.headers).map((ch) => JSON.parse(JSON.stringify(ch)) as Record<string, unknown>)
    : [];
  // The body's x402 v1 view (x402Version 1 + accepts) is for HTTP v1 clients; over MCP the v2 requirements stand alone.
  const { x402Version: _v1, accepts: _v1Accepts, ...ours } = c.body;
  const structured = x402 ? { ...x402, ...ours, error: c.body.error } : ours;
  return { structured, x402, mppChallenges };
}
