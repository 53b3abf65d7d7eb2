// Receipts signed over what was delivered: a compact JWS (ES256, the storefront's signing keys, published at
// /oauth2/jwks.json) over the payment, the request it bought, the upstream's status and the SHA-256 of the response
// body as sent. A payer can prove what it paid for and what it got; the seller can answer a dispute with it. Sent as
// `svc-receipt` on every charged or re-delivered answer, and kept (the charge's) for GET /payments/{id}/receipt.
import "server-only";
import { hash, KeyObject, sign } from "node:crypto";
import type { CryptoKey } from "jose";
import { currentSigningKey } from "../identity/signing-keys";
import { microsToUsd } from "../lib/money";

export const RECEIPT_TYPE = "svc-receipt+jwt";

export type ReceiptFacts = {
  paymentId: string;
  rail: string;
  amountMicros: bigint;
  currency: string;
  payer: string | null;
  sellerId: string;
  request: { method: string; path: string; query: string };
  upstreamStatus: number;
  /** The response body exactly as sent (empty for 204 and 304), or the text it is the UTF-8 of. */
  body: ArrayBuffer | Uint8Array | string | null;
  /** The settlement reference: the chain transaction, the card processor's payment; null where there is none (credits). */
  settlement: string | null;
  /** A re-delivery of a payment charged before (resumable delivery). */
  replay: boolean;
};

/**
 * The body hash a verifier recomputes: SHA-256 of the bytes received, base64url. A string is hashed as its UTF-8.
 * One-shot (`crypto.hash`): no Hash object per answer.
 */
export function bodyHash(body: ArrayBuffer | Uint8Array | string | null): string {
  if (typeof body === "string") return hash("sha256", body, "base64url");
  return hash("sha256", body instanceof Uint8Array ? body : new Uint8Array(body ?? new ArrayBuffer(0)), "base64url");
}

// jose signs through WebCrypto, whose asynchronous job (a thread-pool round trip, promise and abort-signal set-up)
// costs more CPU than the ES256 signature itself, on every paid answer; node:crypto signs the same compact JWS
// synchronously with the same key.
const keyObjects = new WeakMap<CryptoKey, KeyObject>();

function keyObjectOf(key: CryptoKey): KeyObject {
  let k = keyObjects.get(key);
  if (!k) keyObjects.set(key, (k = KeyObject.from(key as Parameters<typeof KeyObject.from>[0])));
  return k;
}

const b64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString("base64url");

// The protected header is the same for every receipt a key signs: encoded once per key.
const headers = new WeakMap<CryptoKey, string>();

function headerOf(key: { alg: string; kid: string; privateKey: CryptoKey }): string {
  let h = headers.get(key.privateKey);
  if (h === undefined) headers.set(key.privateKey, (h = b64url({ alg: key.alg, kid: key.kid, typ: RECEIPT_TYPE })));
  return h;
}

export async function signReceipt(f: ReceiptFacts): Promise<string> {
  const key = await currentSigningKey();
  if (key.alg !== "ES256") throw new Error(`receipts are signed with ES256, not ${key.alg}`);
  const input = `${headerOf(key)}.${b64url({
    payment_id: f.paymentId,
    rail: f.rail,
    amount: microsToUsd(f.amountMicros),
    currency: f.currency,
    payer: f.payer,
    seller: f.sellerId,
    request: f.request,
    upstream_status: f.upstreamStatus,
    body_sha256: bodyHash(f.body),
    settlement: f.settlement,
    replay: f.replay,
    iat: Math.floor(Date.now() / 1000),
    sub: f.paymentId,
  })}`;
  // ES256's JWS signature is r || s (IEEE P1363), not DER.
  const signature = sign("sha256", Buffer.from(input), { key: keyObjectOf(key.privateKey), dsaEncoding: "ieee-p1363" });
  return `${input}.${signature.toString("base64url")}`;
}
