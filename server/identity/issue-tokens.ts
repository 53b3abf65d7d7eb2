// The JWTs this platform issues: the identity assertion (stored by the agent, exchanged at /oauth2/token) and
// the short-lived access token (RFC 9068 at+jwt). Both are ES256 with a published key and bound to one seller
// (`sid`), so a token minted at one storefront is worthless at another.
import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
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
  /** Our key, but a bad signature, the wrong typ or missing claims. */
  | { type: "invalid"; detail: string };

/** Verify a JWT this platform issued, of one typ. Outcomes are values; nothing here throws for a bad token. */
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
