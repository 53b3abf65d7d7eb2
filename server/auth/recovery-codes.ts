// Recovery codes of a seller's second factor: ten, shown once when two-step authentication is turned on, each spent
// once. Kept only as an HMAC-SHA256 under a key derived from APP_SECRET over the user's id and the code (60 random bits
// each: guessing online meets the sign-in limits; a database dump alone tests no guess).
import "server-only";
import { createHmac, randomInt } from "node:crypto";
import { deriveKey } from "../lib/derive-key";

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: read off paper without doubt.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const LENGTH = 12;

/** `xxxx-xxxx-xxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return chars.match(/.{4}/g)!.join("-");
  });
}

/** A typed recovery code as stored: case, spaces and dashes do not matter. Null when it cannot be one. */
export function normalRecoveryCode(typed: string): string | null {
  const s = typed.toLowerCase().replace(/[\s-]/g, "");
  return s.length === LENGTH && [...s].every((c) => ALPHABET.includes(c)) ? s : null;
}

export function hashRecoveryCode(userId: string, code: string): string {
  return createHmac("sha256", deriveKey("seller-recovery-codes"))
    .update(`${userId}:${normalRecoveryCode(code) ?? code}`)
    .digest("hex");
}
