// 402 challenges are signed (HMAC-SHA256 under a key derived from APP_SECRET with HKDF, info "x402-challenge")
// and bound to the request: seller, method, path, canonical query, amount, payTo and expiry. A proof that
// carries the challenge of one request cannot buy another (409 payment_request_mismatch).
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "../../../env";
import { canonicalQuery } from "../../../lib/canonical-query";

export type ChallengeBinding = {
  paymentId: string;
  sellerId: string;
  method: string;
  path: string;
  /** Canonical query (or raw; canonicalised here). */
  query: string;
  amountMicros: bigint;
  payTo: string;
  /** Unix seconds. */
  expiresAt: number;
};

let cachedKey: { secret: string; key: Buffer } | undefined;

function challengeKey(): Buffer {
  const secret = env().APP_SECRET;
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "x402-challenge", 32)) };
  }
  return cachedKey.key;
}

function message(b: ChallengeBinding): string {
  return [
    "v1",
    b.paymentId,
    b.sellerId,
    b.method.toUpperCase(),
    b.path,
    canonicalQuery(b.query),
    b.amountMicros.toString(),
    b.payTo.toLowerCase(),
    String(b.expiresAt),
  ].join("\n");
}

export function signChallenge(b: ChallengeBinding): string {
  return `v1.${createHmac("sha256", challengeKey()).update(message(b)).digest("base64url")}`;
}

export function verifyChallenge(b: ChallengeBinding, token: string): boolean {
  const expected = Buffer.from(signChallenge(b));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
