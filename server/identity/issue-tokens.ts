// The JWTs this platform issues: the identity assertion (stored by the agent, exchanged at /oauth2/token) and
// the short-lived access token (RFC 9068 at+jwt). Both are ES256 with a published key and bound to one seller
// (`sid`), so a token minted at one storefront is worthless at another. Their issuer and audience are the storefront's
// origin at issue time; a storefront answers on several hosts, so verification accepts any origin of the token's own
// storefront, and nothing else (RFC 9068 section 4: the issuer must be ours, the audience must name us).
import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { resolveSeller } from "../catalog/resolve-seller";
import { env } from "../env";
import { ACCESS_TOKEN_TTL_S, ACCESS_TOKEN_TYP, ASSERTION_TYP, CLOCK_SKEW_S, SIGNING_ALG } from "./constants";
import { currentSigningKey, signingKeyByKid } from "./signing-keys";

export type AgentStatus = "unclaimed" | "claimed";

export type AgentClaims = {
  sub: string; // agt_...
  sid: string; // seller id
  agent_type: string;
  agent_status: AgentStatus;
  hum?: string; // human id once claimed
};

export type AssertionClaims = AgentClaims & { gen: number };

async function sign(typ: string, claims: Record<string, unknown>, opts: { issuer: string; audience: string; expiresAt: Date }): Promise<string> {
  const key = await currentSigningKey();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ })
    .setIssuer(opts.issuer)
    .setAudience(opts.audience)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(Math.floor(opts.expiresAt.getTime() / 1000))
    .sign(key.privateKey);
}

/** The identity assertion: audience is the issuer itself (RFC 7523: the authorization server is the audience). */
export async function issueAssertion(claims: AssertionClaims, opts: { issuer: string; expiresAt: Date }): Promise<string> {
  return sign(ASSERTION_TYP, { ...claims, client_id: claims.sub }, { issuer: opts.issuer, audience: opts.issuer, expiresAt: opts.expiresAt });
}

/** A short-lived access token; never outlives the credential (`notAfter`). */
export async function issueAccessToken(claims: AgentClaims, opts: { issuer: string; notAfter: Date | null }): Promise<{ token: string; expiresIn: number }> {
  let exp = Date.now() + ACCESS_TOKEN_TTL_S * 1000;
  if (opts.notAfter && opts.notAfter.getTime() < exp) exp = opts.notAfter.getTime();
  const token = await sign(
    ACCESS_TOKEN_TYP,
    { ...claims, client_id: claims.sub, scope: "agent" },
    { issuer: opts.issuer, audience: opts.issuer, expiresAt: new Date(exp) },
  );
  return { token, expiresIn: Math.max(1, Math.round((exp - Date.now()) / 1000)) };
}

export type OwnTokenResult<C> =
  | { type: "valid"; claims: C & JWTPayload }
  /** Not a compact JWS at all. */
  | { type: "malformed" }
  /** A JWT, but not signed by a key of this platform. */
  | { type: "foreign" }
  | { type: "expired" }
  /** Our key, but a bad signature, the wrong typ, missing claims, or an issuer or audience that is not the storefront. */
  | { type: "invalid"; detail: string };

/**
 * Whether `value` names the storefront `sellerId` as it names itself when it issues: PUBLIC_URL, or an http(s) origin
 * (no path, query or credentials) whose host is one of that storefront's hosts. Another storefront's host, a URL with a
 * path, or any other string is not ours, even in a token our key signed.
 */
async function isStorefrontOrigin(value: unknown, sellerId: string): Promise<boolean> {
  if (typeof value !== "string" || value.length > 2048) return false;
  const publicUrl = env().PUBLIC_URL?.replace(/\/$/, "");
  if (publicUrl && value.replace(/\/$/, "") === publicUrl) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.pathname !== "/" || url.search || url.hash) return false;
  try {
    return (await resolveSeller(url.host)).id === sellerId;
  } catch {
    return false;
  }
}

/** iss is one origin of the token's storefront; aud (a string or an array, RFC 7519 section 4.1.3) contains one. */
async function checkIssuerAndAudience(p: JWTPayload, sellerId: string): Promise<string | null> {
  if (!(await isStorefrontOrigin(p.iss, sellerId))) return "claim iss is wrong";
  const audiences = Array.isArray(p.aud) ? p.aud.slice(0, 10) : [p.aud];
  for (const aud of audiences) if (await isStorefrontOrigin(aud, sellerId)) return null;
  return "claim aud is wrong";
}

/**
 * Verify a JWT this platform issued, of one typ: the key, the signature, the lifetime and the claims' shape, not who
 * it was issued by or for. A token a client presents goes through `verifyStorefrontToken`. Outcomes are values;
 * nothing here throws for a bad token.
 */
export async function verifyOwnToken<C extends AgentClaims>(token: string, typ: string): Promise<OwnTokenResult<C>> {
  let header;
  try {
    if (token.split(".").length !== 3) return { type: "malformed" };
    header = decodeProtectedHeader(token);
  } catch {
    return { type: "malformed" };
  }
  if (header.alg !== SIGNING_ALG || typeof header.kid !== "string") return { type: "foreign" };
  const key = await signingKeyByKid(header.kid);
  if (!key) return { type: "foreign" };
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [SIGNING_ALG], typ, clockTolerance: CLOCK_SKEW_S });
    const p = payload as JWTPayload & Partial<AssertionClaims>;
    if (typeof p.sub !== "string" || typeof p.sid !== "string" || (p.agent_status !== "claimed" && p.agent_status !== "unclaimed"))
      return { type: "invalid", detail: "missing claims" };
    return { type: "valid", claims: payload as C & JWTPayload };
  } catch (e) {
    if (e instanceof errors.JWTExpired) return { type: "expired" };
    if (e instanceof errors.JWTClaimValidationFailed) return { type: "invalid", detail: `claim ${e.claim} is wrong` };
    return { type: "invalid", detail: "signature did not verify" };
  }
}

/**
 * A token a client presents to a storefront (an access token as a bearer, an identity assertion at /oauth2/token):
 * `verifyOwnToken`, then its issuer must be its own storefront (`sid`) and its audience must name it. The caller still
 * checks that `sid` is the storefront the request addressed.
 */
export async function verifyStorefrontToken<C extends AgentClaims>(token: string, typ: string): Promise<OwnTokenResult<C>> {
  const v = await verifyOwnToken<C>(token, typ);
  if (v.type !== "valid") return v;
  const wrong = await checkIssuerAndAudience(v.claims, v.claims.sid);
  return wrong ? { type: "invalid", detail: wrong } : v;
}
