// The bearer rules of SERVICE.md part 5 as one reusable function for every route that needs an agent
// (entitlements, plan purchase, extend): `authenticateAgent` returns the outcome as a value, `requireAgent`
// throws bearer_required / invalid_token with the part 7 reason.
import { AppError } from "../errors";
import { findCredentialById } from "./credentials.queries";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "./parse-agent-authorization";
import { verifyAccessToken } from "./verify-access-token";

export type AgentPrincipal = {
  credentialId: string;
  sellerId: string;
  kind: string;
  /** As the token says: a token issued before a claim stays "unclaimed" (it does not upgrade itself). */
  claimed: boolean;
  /** The human who claimed the credential, if the token was issued after the claim. */
  humanId: string | null;
  tokenExpiresAt: Date;
};

export type InvalidTokenReason =
  | "token_expired"
  | "token_invalid"
  | "malformed_agent_authorization"
  | "unrecognized_agent_credential"
  | "conflicting_agent_credentials"
  | "combined_authorization_unsupported";

export type AgentAuthentication = { type: "agent"; agent: AgentPrincipal } | { type: "none" } | { type: "invalid"; reason: InvalidTokenReason; detail: string };

export async function authenticateAgent(req: Request, sellerId: string): Promise<AgentAuthentication> {
  const parsed = parseAgentAuthorization(req.headers.get("authorization"), req.headers.get(AGENT_AUTHORIZATION_HEADER));
  if (parsed.type === "none") return { type: "none" };
  if (parsed.type === "error") return { type: "invalid", reason: parsed.reason, detail: parsed.detail };

  const v = await verifyAccessToken(parsed.token);
  if (v.type === "invalid") return { type: "invalid", reason: v.reason, detail: v.detail };
  const c = v.claims;
  if (c.sid !== sellerId) return { type: "invalid", reason: "token_invalid", detail: "the access token belongs to another storefront" };
  const credential = await findCredentialById(c.sub);
  const now = new Date();
  if (!credential || credential.revokedAt || credential.sellerId !== sellerId)
    return { type: "invalid", reason: "token_invalid", detail: "the credential is revoked; register again" };
  if (credential.expiresAt && credential.expiresAt <= now)
    return { type: "invalid", reason: "token_invalid", detail: "the unclaimed credential expired; register again" };
  return {
    type: "agent",
    agent: {
      credentialId: credential.id,
      sellerId,
      kind: credential.kind,
      claimed: c.agent_status === "claimed",
      humanId: c.agent_status === "claimed" ? (c.hum ?? null) : null,
      tokenExpiresAt: new Date((c.exp ?? 0) * 1000),
    },
  };
}

/** RFC 6750 / RFC 9728 challenge pointing at the protected resource metadata. */
export function bearerChallenge(origin: string | undefined, error?: string): Record<string, string> {
  const parts = ['Bearer realm="agent"'];
  if (error) parts.push(`error="${error}"`);
  if (origin) parts.push(`resource_metadata="${origin}/.well-known/oauth-protected-resource"`);
  return { "www-authenticate": parts.join(", ") };
}

/** The agent behind the request, or AppError bearer_required (401) / invalid_token (401, with its reason). */
export async function requireAgent(req: Request, ctx: { sellerId: string; origin?: string }): Promise<AgentPrincipal> {
  const res = await authenticateAgent(req, ctx.sellerId);
  if (res.type === "agent") return res.agent;
  if (res.type === "none")
    throw new AppError("bearer_required", {
      detail: "register at /agent/identity, exchange at /oauth2/token, then send Authorization: Bearer <token> (SVC-Agent-Authorization on MPP)",
      headers: bearerChallenge(ctx.origin),
    });
  throw new AppError("invalid_token", { reason: res.reason, detail: res.detail, headers: bearerChallenge(ctx.origin, "invalid_token") });
}
