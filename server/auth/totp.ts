// Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30 s steps, what every authenticator app reads) through the
// `otpauth` library, and the sealing of a secret at rest. A code is matched to its time step so the caller can refuse
// a step already used (two-step.queries.ts keeps the last one): a code read over a shoulder cannot be used again.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { deriveKey } from "../lib/derive-key";

const PERIOD = 30;
const ISSUER = "Seller console";
const SEAL_PURPOSE = "seller-totp-secret";

/** A fresh secret (20 random bytes, RFC 4226's length for SHA-1), base32 as apps show and take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans: the issuer and the account's email as its label. */
export function totpUri(secret: string, account: string): string {
  return new TOTP({ issuer: ISSUER, label: account, secret: Secret.fromBase32(secret), period: PERIOD }).toString();
}

/** The time step `code` belongs to (this one, the one before or after: a phone's clock drifts), or null. */
export function matchTotpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: PERIOD });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/**
 * Sealed with AES-256-GCM under a key derived from APP_SECRET, the user's id as associated data: a database dump alone
 * computes no code, and a sealed secret copied onto another account does not open.
 */
export function sealTotpSecret(secret: string, userId: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", deriveKey(SEAL_PURPOSE), iv).setAAD(Buffer.from(userId));
  const body = Buffer.concat([c.update(secret, "utf8"), c.final()]);
  return [iv, c.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

export function openTotpSecret(sealed: string, userId: string): string {
  const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !body) throw new Error("corrupt TOTP secret");
  const d = createDecipheriv("aes-256-gcm", deriveKey(SEAL_PURPOSE), iv).setAAD(Buffer.from(userId));
  d.setAuthTag(tag);
  return Buffer.concat([d.update(body), d.final()]).toString("utf8");
}
