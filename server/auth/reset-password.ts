// A seller's password reset by email: asked for with an address (the same answer whether or not an account uses it),
// limited per address asked for and per client address (server/rate-limits/sign-in-limit.ts) and to three links an hour
// per account; the link's token is single-use, short-lived and kept only as its SHA-256; using it sets the password,
// ends every session of the account and writes an audit row. The link is built from configuration (the origin the
// console page was served with, PUBLIC_URL and the storefront's host), never from a client's headers.
import { createHash, randomBytes } from "node:crypto";
import { hasControlCharacters } from "../http/invalid-text";
import { sendMail } from "../identity/send-mail";
import { admitSignIn, recordSignInFailure, signInKeys } from "../rate-limits/sign-in-limit";
import { hashPassword } from "./password";
import { countRecentResets, createPasswordReset, findSellerUserForReset, spendPasswordReset } from "./password-resets.queries";

export const RESET_TTL_MS = 30 * 60_000;
const MAX_RESETS_PER_HOUR = 3;
export const MIN_PASSWORD_LENGTH = 12;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type ResetRequest = { type: "sent" } | { type: "locked"; retryAfter: number } | { type: "invalid" };

/** Ask for a reset link. `sent` whether or not an account uses the address (nobody learns which addresses have one). */
export async function requestPasswordReset(input: { email: string; origin: string; client: string | null }): Promise<ResetRequest> {
  const email = input.email.trim().toLowerCase();
  if (!email || email.length > 320 || !email.includes("@") || hasControlCharacters(email)) return { type: "invalid" };
  const keys = signInKeys("reset", email, input.client);
  const verdict = await admitSignIn(keys);
  if (verdict.type === "locked") return verdict;
  await recordSignInFailure(keys);
  const user = await findSellerUserForReset(email);
  if (!user || (await countRecentResets(user.id, new Date(Date.now() - 3_600_000))) >= MAX_RESETS_PER_HOUR) return { type: "sent" };
  const token = randomBytes(32).toString("base64url");
  await createPasswordReset({ sellerUserId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MS) });
  await sendMail({
    to: user.email,
    subject: "Reset your seller console password",
    text:
      `Someone (we hope you) asked to reset the password of your seller console account.\n\n` +
      `Open ${input.origin}/console/reset-password?token=${token} within ${RESET_TTL_MS / 60_000} minutes to choose a new one. ` +
      `The link works once.\n\nIf you did not ask for it, ignore this message: your password stays as it is.`,
  });
  return { type: "sent" };
}

export type ResetOutcome = { type: "reset" } | { type: "invalid_token" } | { type: "weak_password" };

/** Set a new password with a reset token: once, within its lifetime; every session of the account ends. */
export async function resetPassword(input: { token: string; password: string }): Promise<ResetOutcome> {
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > 1024) return { type: "weak_password" };
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(input.token)) return { type: "invalid_token" };
  const ok = await spendPasswordReset(hashToken(input.token), await hashPassword(input.password), new Date());
  return ok ? { type: "reset" } : { type: "invalid_token" };
}
