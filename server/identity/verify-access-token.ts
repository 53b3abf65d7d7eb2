// Verifying an agent's access token on every call, cheaply: a token that verified once is remembered until it
// expires (it is an ES256 JWT signed by us: its signature, issuer key and claims cannot change while it lives). What
// can change, the credential being revoked or expiring, is not decided here: callers check the credential row (the
// plan-covered call does it inside the same statement that reserves the credit).
import { ACCESS_TOKEN_TYP, ASSERTION_TYP } from "./constants";
import { verifyOwnToken, verifyStorefrontToken, type AgentClaims } from "./issue-tokens";

export type VerifiedToken =
  | { type: "valid"; claims: AgentClaims & { exp: number } }
  | { type: "invalid"; reason: "token_expired" | "token_invalid" | "unrecognized_agent_credential"; detail: string };

const MAX_ENTRIES = 50_000;
const verified = new Map<string, AgentClaims & { exp: number }>();

/** A token that already verified here and has not expired: its claims without any work, else null. Never verifies. */
export function peekVerifiedToken(token: string): (AgentClaims & { exp: number }) | null {
  const hit = verified.get(token);
  return hit && hit.exp * 1000 > Date.now() ? hit : null;
}

export async function verifyAccessToken(token: string): Promise<VerifiedToken> {
  const hit = verified.get(token);
  if (hit) {
    if (hit.exp * 1000 > Date.now()) return { type: "valid", claims: hit };
    verified.delete(token);
    return { type: "invalid", reason: "token_expired", detail: "the access token expired; exchange the assertion again at /oauth2/token" };
  }
  const v = await verifyStorefrontToken<AgentClaims>(token, ACCESS_TOKEN_TYP);
  switch (v.type) {
    case "valid": {
      const claims = {
        sub: v.claims.sub,
        sid: v.claims.sid,
        agent_type: v.claims.agent_type,
        agent_status: v.claims.agent_status,
        hum: v.claims.hum,
        exp: v.claims.exp ?? 0,
      };
      if (verified.size >= MAX_ENTRIES) verified.clear();
      verified.set(token, claims);
      return { type: "valid", claims };
    }
    case "malformed":
    case "foreign":
      return {
        type: "invalid",
        reason: "unrecognized_agent_credential",
        detail: "the bearer was not issued by this identity platform; register at /agent/identity and exchange at /oauth2/token",
      };
    case "expired":
      return { type: "invalid", reason: "token_expired", detail: "the access token expired; exchange the assertion again at /oauth2/token" };
    case "invalid": {
      const isAssertion = (await verifyOwnToken(token, ASSERTION_TYP)).type === "valid";
      return {
        type: "invalid",
        reason: "token_invalid",
        detail: isAssertion ? "that is the identity assertion; exchange it at /oauth2/token for an access token" : "the access token did not verify",
      };
    }
  }
}
