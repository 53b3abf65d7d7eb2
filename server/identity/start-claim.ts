// POST /agent/identity/claim: a new claim attempt, i.e. a short-lived link for the human (SERVICE.md part 5).
import { z } from "zod";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { MAX_LIVE_ATTEMPTS } from "./constants";
import { countLiveAttempts, createAttempt } from "./claim-attempts.queries";
import { findCredentialByClaimHash, type CredentialRow } from "./credentials.queries";
import { newAttempt, type AttemptBody, type IdentityContext } from "./identity-view";
import { parseLoginHint } from "./register-identity";
import { hashSecret } from "./secrets";

const bodySchema = z.object({
  type: z.enum(["service_auth", "anonymous"]).optional(),
  claim_token: z.string().min(1).max(512),
  login_hint: z.string().min(1).max(254).optional(),
});

/** The credential behind a claim token, if it can still be claimed here; otherwise the part 5 error. */
export async function claimableCredential(claimToken: string, ctx: IdentityContext, now: Date): Promise<CredentialRow> {
  const credential = await findCredentialByClaimHash(hashSecret(claimToken));
  if (!credential || credential.sellerId !== ctx.sellerId) throw new AppError("invalid_claim_token", { detail: "unknown claim token; restart registration" });
  if (credential.status === "claimed")
    throw new AppError("already_claimed", { detail: "this credential is already claimed; use its assertion or refresh token" });
  if (credential.revokedAt || (credential.expiresAt && credential.expiresAt <= now))
    throw new AppError("claim_expired", { detail: "the credential expired before it was claimed; register again" });
  return credential;
}

export async function startClaim(
  raw: unknown,
  ctx: IdentityContext,
): Promise<{ attempt: AttemptBody; claim: { expires_at: string | null; login_hint: string | null } }> {
  const input = parseWith(bodySchema, raw);
  const now = new Date();
  const credential = await claimableCredential(input.claim_token, ctx, now);
  let loginHint = credential.loginHint;
  if (input.login_hint !== undefined) {
    const given = parseLoginHint(input.login_hint);
    if (loginHint && given !== loginHint)
      throw new AppError("invalid_login_hint", {
        reason: "login_hint_mismatch",
        detail: "login_hint differs from the email this credential was registered for",
      });
    loginHint = given;
  }
  if ((await countLiveAttempts(credential.id, now)) >= MAX_LIVE_ATTEMPTS)
    throw new AppError("too_many_attempts", {
      detail: `at most ${MAX_LIVE_ATTEMPTS} claim links can be open at once; wait for a pending one to expire (minutes) or complete it`,
    });
  const attempt = newAttempt(ctx.origin, loginHint);
  await createAttempt(credential.id, attempt.row);
  return { attempt: attempt.body, claim: { expires_at: credential.expiresAt?.toISOString() ?? null, login_hint: loginHint } };
}
