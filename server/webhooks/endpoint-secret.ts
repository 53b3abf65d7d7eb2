// Webhook signing secrets (Standard Webhooks: `whsec_` + base64 of the key bytes). A secret is shown to the seller once,
// when the endpoint is made or its secret rotated; it is stored sealed with AES-256-GCM under a key derived from
// APP_SECRET (the workers must sign with it, so it cannot be a one-way hash), so a database dump alone cannot sign.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "../lib/derive-key";

const PURPOSE = "webhook-endpoint-secret";

/** 32 random bytes (the specification asks for 24 to 64). */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", deriveKey(PURPOSE), iv);
  const body = Buffer.concat([c.update(secret, "utf8"), c.final()]);
  return [iv, c.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

export function openSecret(sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !body) throw new Error("corrupt webhook secret");
  const d = createDecipheriv("aes-256-gcm", deriveKey(PURPOSE), iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(body), d.final()]).toString("utf8");
}
