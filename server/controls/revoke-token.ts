// POST /oauth2/revoke: RFC 7009 token revocation, for the agent's access and refresh tokens. Agents are public clients
// (the token endpoint takes no client authentication: discovery says `none`), so the token itself is what proves the
// caller may revoke it; a `client_id`, if sent, must name the credential the token was issued to (section 2.1).
// Revoking either token revokes the whole credential for good (section 2.1 lets a server revoke the grant's other tokens;
// a person or agent who asks to revoke expects nothing of that credential to work any more). An unknown, expired,
// foreign or already revoked token answers 200 all the same (section 2.2): the answer tells a caller nothing.
import { AppError } from "../errors";
import { ACCESS_TOKEN_TYP } from "../identity/constants";
import { verifyStorefrontToken, type AgentClaims } from "../identity/issue-tokens";
import { hashSecret } from "../identity/secrets";
import { findRefreshTokenCredential } from "./controls.queries";
import { revokeCredentialByToken } from "./revoke-credential";

function oauthError(code: "invalid_request" | "invalid_client", description: string): AppError {
  // RFC 6749 section 5.2 names the field error_description; `detail` carries the same text for our clients.
  return new AppError(code, { detail: description, extra: { error_description: description }, headers: { "cache-control": "no-store", pragma: "no-cache" } });
}

async function accessTokenCredential(token: string, sellerId: string): Promise<string | null> {
  const v = await verifyStorefrontToken<AgentClaims>(token, ACCESS_TOKEN_TYP);
  return v.type === "valid" && v.claims.sid === sellerId ? v.claims.sub : null;
}

/** The credential a token names at this storefront, looked up the hinted way first, then the other (section 2.1). */
async function tokenCredential(token: string, hint: string | null, sellerId: string): Promise<string | null> {
  const refresh = () => (token.startsWith("rt_") && token.length <= 512 ? findRefreshTokenCredential(hashSecret(token), sellerId) : Promise.resolve(null));
  const access = () => (token.length <= 4096 ? accessTokenCredential(token, sellerId) : Promise.resolve(null));
  const [first, second] = hint === "refresh_token" ? [refresh, access] : [access, refresh];
  return (await first()) ?? (await second());
}

export async function revokeToken(form: URLSearchParams, ctx: { sellerId: string }): Promise<void> {
  const token = form.get("token");
  if (!token) throw oauthError("invalid_request", "token is required");
  if (form.getAll("token").length > 1) throw oauthError("invalid_request", "token is given more than once");
  const credentialId = await tokenCredential(token, form.get("token_type_hint"), ctx.sellerId);
  if (!credentialId) return;
  const clientId = form.get("client_id");
  if (clientId !== null && clientId !== credentialId) throw oauthError("invalid_client", "this token was not issued to that client_id");
  await revokeCredentialByToken(credentialId, ctx.sellerId);
}
