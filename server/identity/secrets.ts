// Secrets handed out by agent identity (claim tokens, claim links, refresh tokens, user codes, sign-in codes)
// are random and stored only as HMAC-SHA256 under a key derived from APP_SECRET: a database dump alone cannot
// replay them, and even short codes cannot be brute-forced offline.
import "server-only";
import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../lib/derive-key";

let hmacKey: Buffer | undefined;

export function hashSecret(value: string): string {
  hmacKey ??= deriveKey("identity-secret-hash");
  return createHmac("sha256", hmacKey).update(value).digest("base64url");
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A prefixed 256-bit random token: `ct_...` claim token, `rt_...` refresh token. */
export function newSecret(prefix?: string): string {
  const raw = randomBytes(32).toString("base64url");
  return prefix ? `${prefix}_${raw}` : raw;
}

// Consonants only (RFC 8628 section 6.1): no vowels to spell words, nothing to confuse with 0/1.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** XXXX-XXXX from 20 letters: about 2.6e10 codes, guarded by a per-attempt failure limit and a short TTL. */
export function newUserCode(): string {
  let s = "";
  for (let i = 0; i < 8; i++) s += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** What a human might type for a user code: any case, spaces or dashes. */
export function normalizeUserCode(input: string): string {
  const s = input.toUpperCase().replace(/[\s-]/g, "");
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4)}` : s;
}

/** Six digits, for the human sign-in email. */
export function newSignInCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}
