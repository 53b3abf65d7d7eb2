import "server-only";
import { hkdfSync } from "node:crypto";
import { env } from "../env";

// Derived once per (secret, purpose, length): HKDF is deterministic, and every 402 needs the MPP challenge key.
const derived = new Map<string, Buffer>();

/** A sub-key of APP_SECRET for one purpose (HKDF-SHA256), so one leaked key never unlocks another use. */
export function deriveKey(purpose: string, length = 32): Buffer {
  const secret = env().APP_SECRET;
  const id = `${length}:${purpose}:${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "storefront", purpose, length));
    derived.set(id, key);
  }
  // A copy: callers own what they get (a Buffer is mutable).
  return Buffer.from(key);
}
