// Stateless 402 challenges (issue 22, docs/challenges.md): a challenge's payment id that carries its own terms, signed,
// so issuing a 402 needs no payments row and whatever later acts on the id (a proof, POST payUrl, statusUrl, the
// checkout page, svc-payment-id) can trust what it says without one:
//   pay_<payload>.<mac>   payload: base64url JSON of the terms; mac: HMAC-SHA256 over the payload under a key derived
//                         from APP_SECRET (HKDF, info "payment-challenge-id"), its first 16 bytes, base64url.
// Nothing of the payload is read before the MAC verifies (constant time). The terms are what a payment row of a
// challenge records (seller, the request it is bound to, price, payee, operation, meter, issue and expiry times, the
// buyer and plan of a purchase, the transport it went out on), plus a random nonce that makes two challenges for the
// same call two payments. createChallenge (create-challenge.ts) signs one per 402 and writes nothing.
// Ids of payments born without a challenge (`pay_` and 16 characters, lib/ids.ts) are not challenge ids.
//
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "../env";

export type ChallengeTerms = {
  sellerId: string;
  method: string;
  path: string;
  /** Canonical query. */
  query: string;
  amountMicros: bigint;
  operationKey: string;
  meterKey: string | null;
  /** Unix seconds. */
  issuedAt: number;
  /** Unix seconds. */
  expiresAt: number;
  credentialId: string | null;
  purchase: { planId: string; kind: "purchase" | "extend" } | null;
  /** How the 402 went out (paid-call.ts `Transport`); absent: http. Only "mcp" is written into the id. */
  transport?: "http" | "mcp";
};

export type ReadChallengeId =
  /** Signed by us; `expired` when its expiry has passed (the terms are still ours, for statusUrl). */
  | { type: "challenge"; terms: ChallengeTerms; expired: boolean }
  /** Not a challenge id at all (an ordinary payment id): look the payment up as it is. */
  | { type: "not_a_challenge" }
  /** Shaped like one, but forged, tampered with, truncated or malformed: no payment of ours. */
  | { type: "invalid" };

const PREFIX = "pay_";
const MAC_BYTES = 16;
/** A challenge id is bounded before anything is computed over it (a path and query are bounded far below this). */
export const MAX_CHALLENGE_ID_LENGTH = 4096;
const SHAPE = /^pay_([A-Za-z0-9_-]{16,4000})\.([A-Za-z0-9_-]{22})$/;

let cachedKey: { secret: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = env().APP_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "payment-challenge-id", 32)) };
  return cachedKey.key;
}

const mac = (payload: string) => createHmac("sha256", key()).update(`v1.${payload}`).digest().subarray(0, MAC_BYTES);

export function signChallengeId(terms: ChallengeTerms): string {
  const t = terms;
  const fields = [
    1,
    randomBytes(6).toString("base64url"),
    t.sellerId,
    t.method.toUpperCase(),
    t.path,
    t.query,
    t.amountMicros.toString(),
    t.operationKey,
    t.meterKey,
    t.issuedAt,
    t.expiresAt,
    t.credentialId,
    t.purchase?.planId ?? null,
    t.purchase?.kind ?? null,
    // Last and only when not http, so an id of an HTTP 402 stays as short as before.
    ...(t.transport === "mcp" ? ["mcp"] : []),
  ];
  const payload = Buffer.from(JSON.stringify(fields)).toString("base64url");
  return `${PREFIX}${payload}.${mac(payload).toString("base64url")}`;
}

const str = (v: unknown): v is string => typeof v === "string";
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const unixSeconds = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

export function readChallengeId(id: string, now: number = Date.now()): ReadChallengeId {
  if (!id.startsWith(PREFIX) || !id.includes(".")) return { type: "not_a_challenge" };
  if (id.length > MAX_CHALLENGE_ID_LENGTH) return { type: "invalid" };
  const m = SHAPE.exec(id);
  if (!m) return { type: "invalid" };
  const [, payload, given] = m as unknown as [string, string, string];
  // Compared as text, not as decoded bytes: the last of a 16-byte mac's 22 characters carries 4 unused bits, so
  // several spellings decode to the same mac, and a payment id must have exactly one spelling.
  const expected = Buffer.from(mac(payload).toString("base64url"));
  const got = Buffer.from(given);
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) return { type: "invalid" };
  // Signed by us: the payload is what we wrote, but it is still checked field by field (a key shared by mistake with
  // another writer must not become a crash here).
  let f: unknown;
  try {
    f = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { type: "invalid" };
  }
  if (!Array.isArray(f) || (f.length !== 14 && f.length !== 15) || f[0] !== 1 || (f.length === 15 && f[14] !== "mcp")) return { type: "invalid" };
  const [, nonce, sellerId, method, path, query, amount, operationKey, meterKey, issuedAt, expiresAt, credentialId, planId, kind, transport] = f;
  if (!str(nonce) || !str(sellerId) || !str(method) || !str(path) || !str(query) || !str(amount) || !/^\d{1,30}$/.test(amount)) return { type: "invalid" };
  if (!str(operationKey) || !strOrNull(meterKey) || !unixSeconds(issuedAt) || !unixSeconds(expiresAt) || !strOrNull(credentialId)) return { type: "invalid" };
  if (!strOrNull(planId) || (planId !== null && kind !== "purchase" && kind !== "extend")) return { type: "invalid" };
  const terms: ChallengeTerms = {
    sellerId,
    method,
    path,
    query,
    amountMicros: BigInt(amount),
    operationKey,
    meterKey,
    issuedAt,
    expiresAt,
    credentialId,
    purchase: planId === null ? null : { planId, kind: kind as "purchase" | "extend" },
    ...(transport === "mcp" ? { transport: "mcp" as const } : {}),
  };
  return { type: "challenge", terms, expired: expiresAt * 1000 <= now };
}
