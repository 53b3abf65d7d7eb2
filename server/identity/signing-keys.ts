// The identity platform's signing keys: ES256, generated on first use, kept in the database with the private
// half encrypted (AES-256-GCM under a key derived from APP_SECRET), the newest two published as the JWKS so a
// rotation never strands a token signed a minute earlier.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { deriveKey } from "../lib/derive-key";
import { SIGNING_ALG, SIGNING_KEY_ROTATE_MS } from "./constants";
import { ensureFreshSigningKey, findNewestSigningKeys, type SigningKeyRow } from "./signing-keys.queries";

export type SigningKey = { kid: string; alg: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK; createdAt: Date };

const CACHE_MS = 60_000;
const PUBLISHED = 2;
let cache: { at: number; keys: SigningKey[] } | undefined;
let loading: Promise<SigningKey[]> | undefined;
// A token with a made-up kid must not turn every request into a database read.
const MISS_RELOAD_MS = 5_000;
let lastMissReload = 0;

function encrypt(plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", deriveKey("identity-signing-key"), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return [iv, c.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

function decrypt(enc: string): string {
  const [iv, tag, body] = enc.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !body) throw new Error("corrupt signing key");
  const d = createDecipheriv("aes-256-gcm", deriveKey("identity-signing-key"), iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(body), d.final()]).toString("utf8");
}

async function makeKey(): Promise<Omit<SigningKeyRow, "createdAt">> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return { kid, alg: SIGNING_ALG, publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: "sig" }, privateKeyEnc: encrypt(JSON.stringify(privateJwk)) };
}

async function hydrate(row: SigningKeyRow): Promise<SigningKey> {
  const publicJwk = row.publicJwk as JWK;
  const privateKey = (await importJWK(JSON.parse(decrypt(row.privateKeyEnc)) as JWK, row.alg)) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, row.alg)) as CryptoKey;
  return { kid: row.kid, alg: row.alg, privateKey, publicKey, publicJwk, createdAt: row.createdAt };
}

async function load(): Promise<SigningKey[]> {
  let rows = await findNewestSigningKeys(PUBLISHED);
  const rotateBefore = new Date(Date.now() - SIGNING_KEY_ROTATE_MS);
  if (!rows[0] || rows[0].createdAt <= rotateBefore) {
    await ensureFreshSigningKey(rotateBefore, makeKey);
    rows = await findNewestSigningKeys(PUBLISHED);
  }
  return Promise.all(rows.map(hydrate));
}

/** The published keys, newest first (cached for a minute per process). */
export async function signingKeys({ fresh = false } = {}): Promise<SigningKey[]> {
  if (!fresh && cache && Date.now() - cache.at < CACHE_MS) return cache.keys;
  loading ??= load().finally(() => (loading = undefined));
  const keys = await loading;
  cache = { at: Date.now(), keys };
  return keys;
}

export async function currentSigningKey(): Promise<SigningKey> {
  return (await signingKeys())[0]!;
}

/** A published key by kid; an unknown kid reloads once, so a key another instance just made is found. */
export async function signingKeyByKid(kid: string): Promise<SigningKey | null> {
  const hit = (await signingKeys()).find((k) => k.kid === kid);
  if (hit) return hit;
  if (Date.now() - lastMissReload < MISS_RELOAD_MS) return null;
  lastMissReload = Date.now();
  return (await signingKeys({ fresh: true })).find((k) => k.kid === kid) ?? null;
}

/** RFC 7517 JWK Set of the published public keys. */
export async function publicJwks(): Promise<{ keys: JWK[] }> {
  return { keys: (await signingKeys()).map((k) => k.publicJwk) };
}

/** Tests only. */
export function forgetSigningKeysForTests(): void {
  cache = undefined;
  lastMissReload = 0;
}
