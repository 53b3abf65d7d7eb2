import "server-only";
import { hkdfSync } from "node:crypto";
import { env } from "../env";

/** A sub-key of APP_SECRET for one purpose (HKDF-SHA256), so one leaked key never unlocks another use. */
export function deriveKey(purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", env().APP_SECRET, "storefront", purpose, length));
}
