// ID-JAG validation (draft-ietf-oauth-identity-assertion-authz-grant, with SERVICE.md part 5's rules): a JWT
// of typ oauth-id-jag+jwt from a provider this seller trusts, signed by a key in that provider's JWKS, for our
// audience, short-lived, with a recent login, a verified email and a single-use jti. Each failure is a value
// carrying its part 5 code; replay is decided later, in the registration transaction that burns the jti.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from "jose";
import { env } from "../env";
import { guardedFetch } from "../lib/public-address";
import type { ErrorCode } from "../errors";
import { CLOCK_SKEW_S, ID_JAG_MAX_AUTH_AGE_S, ID_JAG_MAX_EXP_AHEAD_S, ID_JAG_TYP } from "./constants";
import { normalizeEmail } from "./email";
import type { TrustedProviderRow } from "./trusted-providers.queries";

export type IdJagResult =
  | { type: "valid"; issuer: string; subject: string; email: string; jti: string; exp: number }
  | { type: "invalid"; code: ErrorCode; reason: string; detail: string };

const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

type KeySet = ReturnType<typeof createRemoteJWKSet>;
// Remote key sets are cached per URL: jose refetches on an unknown kid (at most every 30 s) and every 10 min.
const remoteSets = new Map<string, KeySet>();

function keySetOf(provider: TrustedProviderRow): KeySet | ReturnType<typeof createLocalJWKSet> | null {
  if (provider.jwks && typeof provider.jwks === "object") return createLocalJWKSet(provider.jwks as JSONWebKeySet);
  if (!provider.jwksUri) return null;
  let set = remoteSets.get(provider.jwksUri);
  if (!set) {
    // Fetched through the outbound guard (server/lib/public-address.ts): public addresses only, checked on the address
    // connected to, no redirects, at most 256 KiB. Any agent can make us fetch it (an ID-JAG naming the issuer).
    const allowPrivate = env().IDENTITY_ALLOW_PRIVATE_JWKS_URLS;
    set = createRemoteJWKSet(new URL(provider.jwksUri), {
      timeoutDuration: 5_000,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
      [customFetch]: guardedFetch({ allowPrivate, maxBytes: 256 * 1024 }),
    });
    remoteSets.set(provider.jwksUri, set);
  }
  return set;
}

const fail = (code: ErrorCode, reason: string, detail: string): IdJagResult => ({ type: "invalid", code, reason, detail });

export async function verifyIdJag(
  assertion: string,
  opts: { audiences: string[]; findProvider: (issuer: string) => Promise<TrustedProviderRow | null>; now?: number },
): Promise<IdJagResult> {
  const nowS = Math.floor((opts.now ?? Date.now()) / 1000);
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(assertion);
    unverified = decodeJwt(assertion);
  } catch {
    return fail("invalid_request", "malformed_assertion", "assertion is not a compact JWT");
  }
  // alg "none" (any case) is refused before anything else looks at the claims.
  if (typeof header.alg !== "string" || header.alg.toLowerCase() === "none" || !ALGORITHMS.includes(header.alg))
    return fail("invalid_signature", "unsupported_alg", `alg ${String(header.alg)} is not accepted; sign with an asymmetric algorithm`);
  if (header.typ !== ID_JAG_TYP) return fail("invalid_request", "invalid_typ", `typ must be ${ID_JAG_TYP}`);
  if (typeof unverified.iss !== "string" || !unverified.iss) return fail("invalid_request", "missing_iss", "iss is required");

  const provider = await opts.findProvider(unverified.iss);
  if (!provider || !provider.enabled)
    return fail(
      "issuer_not_enabled",
      "untrusted_issuer",
      `issuer ${unverified.iss} is not a trusted identity provider here; fall back to service_auth or anonymous`,
    );
  const keys = keySetOf(provider);
  if (!keys) return fail("issuer_not_enabled", "issuer_without_keys", "the provider has no keys configured");

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      algorithms: ALGORITHMS,
      issuer: provider.issuer,
      typ: ID_JAG_TYP,
      clockTolerance: CLOCK_SKEW_S,
      currentDate: new Date(nowS * 1000),
    }));
  } catch (e) {
    if (e instanceof errors.JWTExpired) return fail("expired", "assertion_expired", "the assertion has expired; mint a fresh one");
    if (e instanceof errors.JWKSTimeout || (e instanceof Error && e.name === "TypeError"))
      return fail("invalid_signature", "jwks_unavailable", "the provider's keys could not be fetched");
    if (e instanceof errors.JWKSNoMatchingKey) return fail("invalid_signature", "unknown_key", "no key in the provider's JWKS matches the assertion");
    if (e instanceof errors.JWTClaimValidationFailed) return fail("invalid_request", `invalid_${e.claim}`, `claim ${e.claim} failed validation`);
    return fail("invalid_signature", "bad_signature", "the signature did not verify against the provider's keys");
  }

  const aud = Array.isArray(payload.aud) ? payload.aud : typeof payload.aud === "string" ? [payload.aud] : [];
  if (!aud.some((a) => opts.audiences.includes(a)))
    return fail("invalid_audience", "invalid_audience", `aud must name ${opts.audiences[0]} (or this storefront's URL)`);
  if (typeof payload.exp !== "number") return fail("invalid_request", "missing_exp", "exp is required");
  if (payload.exp > nowS + ID_JAG_MAX_EXP_AHEAD_S + CLOCK_SKEW_S)
    return fail("expired", "lifetime_too_long", `exp may be at most ${ID_JAG_MAX_EXP_AHEAD_S / 60} minutes ahead`);
  const authTime = (payload as { auth_time?: unknown }).auth_time;
  if (typeof authTime !== "number") return fail("login_required", "missing_auth_time", "auth_time is required; the user must sign in at the provider");
  if (authTime < nowS - ID_JAG_MAX_AUTH_AGE_S || authTime > nowS + CLOCK_SKEW_S)
    return fail("login_required", "stale_auth_time", "the user's sign-in (auth_time) is older than 30 days; they must sign in again");
  const p = payload as { email?: unknown; email_verified?: unknown };
  const email = typeof p.email === "string" ? normalizeEmail(p.email) : null;
  if (!email || p.email_verified !== true)
    return fail("missing_verified_email", "missing_verified_email", "the assertion must carry email with email_verified: true");
  if (typeof payload.sub !== "string" || !payload.sub) return fail("invalid_request", "missing_sub", "sub is required");
  if (typeof payload.jti !== "string" || !payload.jti || payload.jti.length > 256)
    return fail("invalid_request", "missing_jti", "a single-use jti is required");
  return { type: "valid", issuer: provider.issuer, subject: payload.sub, email, jti: payload.jti, exp: payload.exp };
}
