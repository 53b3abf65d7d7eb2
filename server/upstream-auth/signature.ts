// Gateway -> upstream request signing. The gateway signs every proxied request with the seller's signing
// secret; the upstream rejects anything unsigned, stale or altered, so the data cannot be fetched around
// the payment.
//
//   svc-gateway-timestamp: <unix seconds>
//   svc-gateway-signature: v1=<hex HMAC-SHA256(secret, METHOD \n PATH \n CANONICAL_QUERY \n TIMESTAMP)>
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalQuery } from "../lib/canonical-query";

export const TIMESTAMP_HEADER = "svc-gateway-timestamp";
export const SIGNATURE_HEADER = "svc-gateway-signature";
/** Signatures older or newer than this are refused (replay window). */
export const MAX_SKEW_SECONDS = 300;

export type SignedRequestParts = { method: string; path: string; query: URLSearchParams | string };

function mac(secret: string, parts: SignedRequestParts, timestamp: number): string {
  const payload = `${parts.method.toUpperCase()}\n${parts.path}\n${canonicalQuery(parts.query)}\n${timestamp}`;
  return createHmac("sha256", secret).update(payload).digest("hex");
}

export function signUpstreamRequest(secret: string, parts: SignedRequestParts, now = Date.now()): Record<string, string> {
  const ts = Math.floor(now / 1000);
  return { [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: `v1=${mac(secret, parts, ts)}` };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing_signature" | "stale_signature" | "bad_signature" };

export function verifyUpstreamRequest(secret: string, parts: SignedRequestParts, headers: Headers, now = Date.now()): SignatureCheck {
  const tsRaw = headers.get(TIMESTAMP_HEADER);
  const sigRaw = headers.get(SIGNATURE_HEADER);
  if (!tsRaw || !sigRaw) return { ok: false, reason: "missing_signature" };
  const ts = Number(tsRaw);
  if (!/^\d{1,12}$/.test(tsRaw) || Math.abs(now / 1000 - ts) > MAX_SKEW_SECONDS) return { ok: false, reason: "stale_signature" };
  const expected = Buffer.from(`v1=${mac(secret, parts, ts)}`);
  const given = Buffer.from(sigRaw);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "bad_signature" };
  return { ok: true };
}
