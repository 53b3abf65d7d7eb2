// POST /agent/identity/claim/complete: the agent types back the user code the human read off the claim page
// and receives the claimed identity, once (SERVICE.md part 5).
import { z } from "zod";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { MAX_USER_CODE_FAILURES } from "./constants";
import { findRecentAttempts, submitUserCode } from "./claim-attempts.queries";
import { identityBody, newRefreshToken, type IdentityBody, type IdentityContext } from "./identity-view";
import { hashSecret, normalizeUserCode, sameHash } from "./secrets";
import { claimableCredential } from "./start-claim";

const bodySchema = z.object({
  claim_token: z.string().min(1).max(512),
  user_code: z.string().min(1).max(32),
});

export function userCodeHash(attemptId: string, code: string): string {
  return hashSecret(`usercode:${attemptId}:${normalizeUserCode(code)}`);
}

/** The answer for an attempt that is not waiting for a code (SERVICE.md part 5's claim errors). */
function notConfirmed(status: string, expiresAt: Date, now: Date): AppError {
  switch (status) {
    case "denied":
      return new AppError("claim_denied", { detail: "the human declined this claim" });
    case "locked":
      return new AppError("too_many_attempts", { detail: "too many wrong user codes; start a new claim attempt once this one expires" });
    case "completed":
      return new AppError("already_claimed");
    default:
      if (expiresAt <= now) return new AppError("claim_expired", { detail: "the claim link expired before the human confirmed; start a new claim attempt" });
      return new AppError("claim_not_confirmed", {
        detail: "the human has not confirmed yet; wait and retry",
        headers: { "retry-after": "5" },
        extra: { retry_after: 5 },
      });
  }
}

const codeExpired = () =>
  new AppError("user_code_expired", { detail: "the user code expired; the human can show a new one by reopening the link, or start a new attempt" });

export async function completeClaimWithCode(raw: unknown, ctx: IdentityContext): Promise<{ identity: IdentityBody }> {
  const input = parseWith(bodySchema, raw);
  const now = new Date();
  const credential = await claimableCredential(input.claim_token, ctx, now);
  const attempts = await findRecentAttempts(credential.id);
  // A confirmed attempt wins over newer pending ones (the agent may have opened another link meanwhile).
  const attempt = attempts.find((a) => a.status === "confirmed") ?? attempts[0];
  if (!attempt) throw new AppError("claim_not_confirmed", { detail: "no claim attempt yet: POST /agent/identity/claim first" });
  if (attempt.status !== "confirmed") throw notConfirmed(attempt.status, attempt.expiresAt, now);
  if (!attempt.userCodeHash || !attempt.humanId || !attempt.userCodeExpiresAt || attempt.userCodeExpiresAt <= now) throw codeExpired();
  // The code is compared under the attempt's row lock, against the attempt as it is then: concurrent codes are judged
  // one at a time, and none once the attempt has locked (or completed).
  const refresh = newRefreshToken();
  const codeHash = userCodeHash(attempt.id, input.user_code);
  const done = await submitUserCode({
    attemptId: attempt.id,
    credentialId: credential.id,
    matches: (stored) => sameHash(stored, codeHash),
    maxFailures: MAX_USER_CODE_FAILURES,
    refresh: refresh.row,
    now,
  });
  switch (done.type) {
    case "not_confirmed":
      throw notConfirmed(done.status, done.expiresAt, now);
    case "code_expired":
      throw codeExpired();
    case "wrong_code":
      if (done.locked) throw new AppError("too_many_attempts", { detail: "too many wrong user codes; this attempt is locked" });
      throw new AppError("invalid_user_code", { detail: "that is not the code shown to the human" });
    case "already_claimed":
      throw new AppError("already_claimed");
    case "completed":
      return { identity: await identityBody(done.credential, ctx, { human: done.human, refreshToken: refresh }) };
  }
}
