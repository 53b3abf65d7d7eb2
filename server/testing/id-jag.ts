// Test-only: an ID-JAG identity provider (an ES256 key pair and its public JWK) and the assertions it signs,
// shared by the ID-JAG registration tests and the console's trusted-provider tests.
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { env } from "../env";
import { postJson } from "./identity-harness";

export const uniq = () => Math.random().toString(36).slice(2, 10);

export type IdJagProvider = { issuer: string; privateKey: CryptoKey; publicJwk: JWK };

export async function makeIdJagProvider(issuer: string, kid = "provider-key-1"): Promise<IdJagProvider> {
  const kp = await generateKeyPair("ES256", { extractable: true });
  return { issuer, privateKey: kp.privateKey, publicJwk: { ...(await exportJWK(kp.publicKey)), kid, alg: "ES256", use: "sig" } };
}

export type Mint = { header?: Record<string, unknown>; claims?: Record<string, unknown>; key?: CryptoKey; alg?: string; omit?: string[] };

/** A valid ID-JAG of `provider` for this storefront's audience; `opts` bends it for the rejection tests. */
export async function mintIdJag(provider: IdJagProvider, opts: Mint = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: provider.issuer,
    sub: `user-${uniq()}`,
    aud: env().IDENTITY_AUDIENCE,
    email: `user-${uniq()}@example.com`,
    email_verified: true,
    jti: uniq() + uniq(),
    iat: now,
    exp: now + 300,
    auth_time: now - 3600,
    client_id: "agent-provider-client",
    ...opts.claims,
  };
  for (const k of opts.omit ?? []) delete claims[k];
  return new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? "ES256", typ: "oauth-id-jag+jwt", kid: provider.publicJwk.kid!, ...opts.header })
    .sign(opts.key ?? provider.privateKey);
}

/** POST /agent/identity with an ID-JAG (type identity_assertion). */
export const registerWithIdJag = (store: { origin: string; fetch: typeof fetch }, assertion: string) =>
  postJson(store, "/agent/identity", { type: "identity_assertion", assertion_type: "urn:ietf:params:oauth:token-type:id-jag", assertion });
