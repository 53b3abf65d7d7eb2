// What the agent receives for a credential (SERVICE.md part 2, "Agent identity"): identity.assertion always,
// identity.refresh_token.value once claimed, and the claim block while a human can still claim it.
import { CLAIM_LINK_TTL_MS, CLAIMED_ASSERTION_TTL_MS, REFRESH_TOKEN_TTL_MS } from "./constants";
import type { CredentialRow, NewAttempt, NewRefreshToken } from "./credentials.queries";
import { issueAssertion } from "./issue-tokens";
import { newId } from "../lib/ids";
import { hashSecret, newSecret } from "./secrets";

/** `client`: the caller's address, for the budget of unauthenticated registrations (null when unknown). */
export type IdentityContext = { sellerId: string; origin: string; client?: string | null };

export type IdentityBody = {
  id: string;
  type: string;
  status: string;
  assertion: string;
  assertion_expires_at: string;
  token_endpoint: string;
  grant_type: string;
  expires_at: string | null;
  claimed: boolean;
  human?: { id: string; email: string };
  refresh_token?: { value: string; expires_at: string };
};

export type AttemptBody = { id: string; verification_uri: string; expires_at: string; expires_in: number; complete_endpoint: string };

/** A fresh refresh token: the secret for the agent, the hashed row for the database. */
export function newRefreshToken(): { value: string; row: NewRefreshToken } {
  const value = newSecret("rt");
  return { value, row: { id: newId("rft"), tokenHash: hashSecret(value), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) } };
}

/** A fresh claim attempt: the link secret goes into verification_uri, only its hash into the database. */
export function newAttempt(origin: string, loginHint: string | null): { row: NewAttempt; body: AttemptBody } {
  const link = newSecret();
  const expiresAt = new Date(Date.now() + CLAIM_LINK_TTL_MS);
  const id = newId("cla");
  return {
    row: { id, linkTokenHash: hashSecret(link), loginHint, expiresAt },
    body: {
      id,
      verification_uri: `${origin}/claim/${link}`,
      expires_at: expiresAt.toISOString(),
      expires_in: Math.round(CLAIM_LINK_TTL_MS / 1000),
      complete_endpoint: `${origin}/agent/identity/claim/complete`,
    },
  };
}

export async function identityBody(
  credential: CredentialRow,
  ctx: IdentityContext,
  extra: { human?: { id: string; email: string } | null; refreshToken?: { value: string; row: NewRefreshToken } } = {},
): Promise<IdentityBody> {
  const claimed = credential.status === "claimed";
  const assertionExpiresAt = claimed || !credential.expiresAt ? new Date(Date.now() + CLAIMED_ASSERTION_TTL_MS) : credential.expiresAt;
  const assertion = await issueAssertion(
    {
      sub: credential.id,
      sid: credential.sellerId,
      agent_type: credential.kind,
      agent_status: claimed ? "claimed" : "unclaimed",
      gen: credential.generation,
      ...(credential.humanId ? { hum: credential.humanId } : {}),
    },
    { issuer: ctx.origin, expiresAt: assertionExpiresAt },
  );
  return {
    id: credential.id,
    type: credential.kind,
    status: credential.status,
    assertion,
    assertion_expires_at: assertionExpiresAt.toISOString(),
    token_endpoint: `${ctx.origin}/oauth2/token`,
    grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    expires_at: credential.expiresAt?.toISOString() ?? null,
    claimed,
    ...(extra.human ? { human: { id: extra.human.id, email: extra.human.email } } : {}),
    ...(extra.refreshToken ? { refresh_token: { value: extra.refreshToken.value, expires_at: extra.refreshToken.row.expiresAt.toISOString() } } : {}),
  };
}
