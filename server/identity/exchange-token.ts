// POST /oauth2/token: RFC 7523 jwt-bearer grant. The assertion is one this platform issued (identity.assertion);
// the answer is a short-lived access token carrying the credential's state *as of now* (a pre-claim token never
// upgrades itself: after a claim the agent exchanges the new assertion).
import { AppError } from "../errors";
import { ASSERTION_TYP, JWT_BEARER_GRANT } from "./constants";
import { findCredentialById } from "./credentials.queries";
import { issueAccessToken, verifyStorefrontToken, type AssertionClaims } from "./issue-tokens";

export type TokenResponse = { access_token: string; token_type: "Bearer"; expires_in: number; scope: string };

function oauthError(code: "invalid_request" | "invalid_grant" | "unsupported_grant_type", description: string, reason?: string): AppError {
  // RFC 6749 section 5.2 names the field error_description; `detail` carries the same text for our clients.
  return new AppError(code, {
    reason,
    detail: description,
    extra: { error_description: description },
    headers: { "cache-control": "no-store", pragma: "no-cache" },
  });
}

export async function exchangeToken(form: URLSearchParams, ctx: { sellerId: string; origin: string }): Promise<TokenResponse> {
  const grantType = form.get("grant_type");
  if (!grantType) throw oauthError("invalid_request", "grant_type is required");
  if (grantType !== JWT_BEARER_GRANT) throw oauthError("unsupported_grant_type", `only ${JWT_BEARER_GRANT} is supported`);
  const assertion = form.get("assertion");
  if (!assertion) throw oauthError("invalid_request", "assertion is required");
  if (form.getAll("assertion").length > 1) throw oauthError("invalid_request", "assertion is given more than once");

  const v = await verifyStorefrontToken<AssertionClaims>(assertion, ASSERTION_TYP);
  switch (v.type) {
    case "malformed":
      throw oauthError("invalid_request", "the assertion could not be decoded", "undecodable_assertion");
    case "foreign":
      throw oauthError("invalid_grant", "the assertion was not issued by this identity platform; register at /agent/identity", "unrecognized_assertion");
    case "expired":
      throw oauthError("invalid_grant", "the assertion has expired; refresh if claimed, otherwise register again", "assertion_expired");
    case "invalid":
      throw oauthError("invalid_grant", `the assertion is not valid: ${v.detail}`, "invalid_assertion");
  }
  const c = v.claims;
  if (c.sid !== ctx.sellerId) throw oauthError("invalid_grant", "the assertion belongs to another storefront", "wrong_storefront");
  const credential = await findCredentialById(c.sub);
  const now = new Date();
  if (!credential || credential.revokedAt || credential.status === "pending_claim") throw oauthError("invalid_grant", "the credential is revoked", "revoked");
  if (credential.expiresAt && credential.expiresAt <= now)
    throw oauthError("invalid_grant", "the unclaimed credential expired; register again", "credential_expired");
  // Claims and refreshes bump the generation: only the newest assertion exchanges.
  if (c.gen !== credential.generation) throw oauthError("invalid_grant", "this assertion was superseded (claim or refresh); use the newest one", "superseded");

  const claimed = credential.status === "claimed";
  const { token, expiresIn } = await issueAccessToken(
    {
      sub: credential.id,
      sid: credential.sellerId,
      agent_type: credential.kind,
      agent_status: claimed ? "claimed" : "unclaimed",
      ...(credential.humanId ? { hum: credential.humanId } : {}),
    },
    { issuer: ctx.origin, notAfter: credential.expiresAt },
  );
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn, scope: "agent" };
}
