// POST /agent/identity (SERVICE.md part 5, "Registration"): anonymous, service_auth, identity_assertion and
// refresh. Returns the response body and status; every refusal is an AppError with its part 5 code.
import { z } from "zod";
import { env } from "../env";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { rateLimitError, rateLimits } from "../rate-limits/rate-limit";
import { newId } from "../lib/ids";
import { ANONYMOUS_TTL_MS, ID_JAG_TOKEN_TYPE, PENDING_CLAIM_TTL_MS } from "./constants";
import { isPlusAliased, normalizeEmail } from "./email";
import { createPendingCredential, createUnclaimedCredential, findHumanById } from "./credentials.queries";
import { rotateRefreshToken } from "./refresh-tokens.queries";
import { registerAssertedCredential } from "./registration.queries";
import { findTrustedProvider } from "./trusted-providers.queries";
import { identityBody, newAttempt, newRefreshToken, type IdentityContext } from "./identity-view";
import { hashSecret, newSecret } from "./secrets";
import { verifyIdJag } from "./verify-id-jag";

const bodySchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("anonymous") }),
  z.object({ type: z.literal("service_auth"), login_hint: z.string().min(1).max(254) }),
  z.object({ type: z.literal("identity_assertion"), assertion_type: z.literal(ID_JAG_TOKEN_TYPE), assertion: z.string().min(1).max(16_384) }),
  z.object({ type: z.literal("refresh"), refresh_token: z.string().min(1).max(512) }),
]);

export type RegistrationResponse = { status: number; body: Record<string, unknown> };

function claimBlock(token: string, expiresAt: Date, ctx: IdentityContext, extra: Record<string, unknown> = {}) {
  return { token, expires_at: expiresAt.toISOString(), claim_endpoint: `${ctx.origin}/agent/identity/claim`, ...extra };
}

/** A login_hint that can be claimed: an email, never plus-aliased. */
export function parseLoginHint(raw: string): string {
  const email = normalizeEmail(raw);
  if (!email) throw new AppError("invalid_login_hint", { detail: "login_hint must be the user's email address" });
  if (isPlusAliased(email))
    throw new AppError("invalid_login_hint", {
      reason: "plus_aliased_email",
      detail: "plus-aliased addresses (name+tag@...) are refused; use the plain address",
    });
  return email;
}

export async function registerIdentity(raw: unknown, ctx: IdentityContext): Promise<RegistrationResponse> {
  if (!raw || typeof raw !== "object" || !("type" in raw))
    throw new AppError("invalid_request", {
      reason: "invalid_parameter",
      detail: "type is required: anonymous, service_auth, identity_assertion or refresh",
      extra: { parameter: "type" },
    });
  const input = parseWith(bodySchema, raw);
  switch (input.type) {
    case "anonymous":
      await admitUnauthenticated(ctx);
      return registerAnonymous(ctx);
    case "service_auth":
      await admitUnauthenticated(ctx);
      return registerServiceAuth(input.login_hint, ctx);
    case "identity_assertion":
      return registerWithAssertion(input.assertion, ctx);
    case "refresh":
      return refreshIdentity(input.refresh_token, ctx);
  }
}

/**
 * Anonymous and service_auth registrations carry no credential of any kind and each writes rows: they spend the
 * caller's anonymous budget (per client address, docs/rate-limits.md), so one client cannot mint credentials without end.
 */
async function admitUnauthenticated(ctx: IdentityContext): Promise<void> {
  const v = await rateLimits.admitAnonymous({ sellerId: ctx.sellerId, client: ctx.client ?? null });
  if (v.type === "limited") throw rateLimitError(v);
}

async function registerAnonymous(ctx: IdentityContext): Promise<RegistrationResponse> {
  if (!env().IDENTITY_ANONYMOUS_REGISTRATION)
    throw new AppError("anonymous_registration_disabled", {
      detail: "this storefront does not register anonymous agents; use service_auth or identity_assertion",
    });
  const claimToken = newSecret("ct");
  const expiresAt = new Date(Date.now() + ANONYMOUS_TTL_MS);
  const credential = await createUnclaimedCredential({ id: newId("agt"), sellerId: ctx.sellerId, claimTokenHash: hashSecret(claimToken), expiresAt });
  return { status: 201, body: { identity: await identityBody(credential, ctx), claim: claimBlock(claimToken, expiresAt, ctx) } };
}

async function registerServiceAuth(rawHint: string, ctx: IdentityContext): Promise<RegistrationResponse> {
  if (!env().IDENTITY_SERVICE_AUTH_REGISTRATION)
    throw new AppError("service_auth_registration_disabled", { detail: "this storefront does not register service_auth agents" });
  const loginHint = parseLoginHint(rawHint);
  const claimToken = newSecret("ct");
  const expiresAt = new Date(Date.now() + PENDING_CLAIM_TTL_MS);
  const attempt = newAttempt(ctx.origin, loginHint);
  const credential = await createPendingCredential({
    id: newId("agt"),
    sellerId: ctx.sellerId,
    kind: "service_auth",
    loginHint,
    claimTokenHash: hashSecret(claimToken),
    expiresAt,
    attempt: attempt.row,
  });
  return {
    status: 201,
    body: { identity: null, status: credential.status, claim: claimBlock(claimToken, expiresAt, ctx, { login_hint: loginHint, attempt: attempt.body }) },
  };
}

async function registerWithAssertion(assertion: string, ctx: IdentityContext): Promise<RegistrationResponse> {
  const audiences = [env().IDENTITY_AUDIENCE, ctx.origin, `${ctx.origin}/`];
  const verdict = await verifyIdJag(assertion, { audiences, findProvider: (iss) => findTrustedProvider(ctx.sellerId, iss) });
  if (verdict.type === "invalid") throw new AppError(verdict.code, { reason: verdict.reason, detail: verdict.detail });

  const refresh = newRefreshToken();
  const claimToken = newSecret("ct");
  const pendingExpiresAt = new Date(Date.now() + PENDING_CLAIM_TTL_MS);
  const attempt = newAttempt(ctx.origin, verdict.email);
  const res = await registerAssertedCredential({
    sellerId: ctx.sellerId,
    issuer: verdict.issuer,
    subject: verdict.subject,
    email: verdict.email,
    jti: verdict.jti,
    // The jti must be remembered at least as long as the assertion could be presented.
    jtiExpiresAt: new Date((verdict.exp + 60) * 1000),
    credentialId: newId("agt"),
    refresh: refresh.row,
    pending: { claimTokenHash: hashSecret(claimToken), expiresAt: pendingExpiresAt, attempt: attempt.row },
  });
  if (res.type === "replay") throw new AppError("replay_detected", { detail: "this assertion's jti was already used; mint a fresh assertion" });
  if (res.type === "interaction_required")
    throw new AppError("interaction_required", {
      detail: "this email already has an account here: the user must confirm this agent once (open claim.attempt.verification_uri)",
      extra: { claim: claimBlock(claimToken, pendingExpiresAt, ctx, { login_hint: verdict.email, attempt: attempt.body }) },
    });
  return { status: 201, body: { identity: await identityBody(res.credential, ctx, { human: res.human, refreshToken: refresh }) } };
}

async function refreshIdentity(refreshToken: string, ctx: IdentityContext): Promise<RegistrationResponse> {
  const next = newRefreshToken();
  const res = await rotateRefreshToken(hashSecret(refreshToken), ctx.sellerId, next.row, new Date());
  if (res.type !== "rotated") {
    const detail =
      res.type === "reused"
        ? "this refresh token was already used; every token of the credential is revoked, restart registration"
        : res.type === "expired"
          ? "this refresh token has expired; restart registration"
          : "unknown or revoked refresh token; restart registration";
    throw new AppError("invalid_refresh_token", { reason: res.type, detail });
  }
  const human = res.credential.humanId ? await findHumanById(res.credential.humanId) : null;
  return { status: 200, body: { identity: await identityBody(res.credential, ctx, { human, refreshToken: next }) } };
}
