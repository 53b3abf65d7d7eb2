// How a human proves an email on the claim page: a six-digit code sent to the address, typed back into the
// page, checked by the next-auth "human-email" credentials provider. Works offline (the demo outbox).
import { MAX_SIGN_IN_CODE_FAILURES, MAX_SIGN_IN_CODES_PER_WINDOW, SIGN_IN_CODE_TTL_MS } from "./constants";
import { isPlusAliased, normalizeEmail } from "./email";
import { countRecentSignInCodes, createSignInCode, findNewestSignInCode, recordSignInCodeFailure, spendSignInCode } from "./human-sign-in.queries";
import { hashSecret, newSignInCode, sameHash } from "./secrets";
import { sendMail } from "./send-mail";
import { admitSignIn, mailKeys, recordSignInFailure } from "../rate-limits/sign-in-limit";

export type SignInRequest = { type: "sent"; email: string } | { type: "refused"; detail: string };

/** Email a sign-in code. Plus-aliased addresses are refused (they could not claim anything anyway). */
export async function requestSignInCode(input: { email: string; origin: string; claimPath?: string; client?: string | null }): Promise<SignInRequest> {
  const email = normalizeEmail(input.email);
  if (!email) return { type: "refused", detail: "that is not an email address" };
  if (isPlusAliased(email)) return { type: "refused", detail: "plus-aliased addresses (name+tag@...) cannot claim agents; use your plain address" };
  // Anyone with a claim link can ask: codes are limited per recipient and per asking address, with backoff.
  const keys = mailKeys("human", email, input.client ?? null);
  const verdict = await admitSignIn(keys);
  if (verdict.type === "locked") return { type: "refused", detail: `too many codes asked for; wait ${verdict.retryAfter} seconds` };
  await recordSignInFailure(keys);
  const now = Date.now();
  if ((await countRecentSignInCodes(email, new Date(now - SIGN_IN_CODE_TTL_MS))) >= MAX_SIGN_IN_CODES_PER_WINDOW)
    return { type: "refused", detail: "too many codes sent to this address; wait a few minutes" };
  const code = newSignInCode();
  await createSignInCode({ email, codeHash: hashSecret(`signin:${email}:${code}`), expiresAt: new Date(now + SIGN_IN_CODE_TTL_MS) });
  const link = input.claimPath ? `\n\nOr open ${input.origin}${input.claimPath} and type it there.` : "";
  const sent = await sendMail({
    to: email,
    subject: `Your sign-in code: ${code}`,
    text: `Your sign-in code is ${code}. It expires in ${SIGN_IN_CODE_TTL_MS / 60_000} minutes.${link}\n\nIf you did not ask for it, ignore this message.`,
  });
  if (sent.type === "failed")
    return {
      type: "refused",
      detail:
        sent.reason === "not_configured"
          ? "this storefront cannot send sign-in emails yet; tell the seller"
          : "we could not send the email just now; try again in a minute",
    };
  return { type: "sent", email };
}

/** The human behind an email and code, or null. Wrong codes count; the newest code alone is valid. */
export async function verifySignInCode(rawEmail: string, rawCode: string): Promise<{ id: string; email: string; sessionVersion: number } | null> {
  const email = normalizeEmail(rawEmail);
  const code = rawCode.replace(/\s/g, "");
  if (!email || isPlusAliased(email) || !/^\d{6}$/.test(code)) return null;
  const row = await findNewestSignInCode(email);
  const now = new Date();
  if (!row || row.usedAt || row.expiresAt <= now || row.failed >= MAX_SIGN_IN_CODE_FAILURES) return null;
  if (!sameHash(row.codeHash, hashSecret(`signin:${email}:${code}`))) {
    await recordSignInCodeFailure(row.id);
    return null;
  }
  return spendSignInCode({ id: row.id, email, maxFailures: MAX_SIGN_IN_CODE_FAILURES, now });
}
