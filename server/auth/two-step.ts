// A seller user's second factor (TOTP), the way a payments dashboard does it: begun from Settings (a secret shown once
// with its otpauth URI), turned on only with a current code and the account's password (a session left open cannot
// lock its owner out), with ten recovery codes shown once, ending every other session of the account; turned off only
// with a current code or a recovery code; new recovery codes only with the password and a current code. Turning it on
// or off is emailed to the account's address (two-step-mail.ts).
// Every code is accepted once (the last time step is kept), and every wrong code or password here counts against the
// account's sign-in limit (server/rate-limits/sign-in-limit.ts), as a wrong one at sign-in does.
import "server-only";
import { admitSignIn, forgetAccountFailures, recordSignInFailure, signInKeys } from "../rate-limits/sign-in-limit";
import { verifyPassword } from "./password";
import { hashRecoveryCode, newRecoveryCodes, normalRecoveryCode } from "./recovery-codes";
import { matchTotpStep, newTotpSecret, openTotpSecret, sealTotpSecret, totpUri } from "./totp";
import { mailTwoStepChange } from "./two-step-mail";
import {
  countUnusedRecoveryCodes,
  findSellerUserForTwoStep,
  findTwoStep,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
  spendTotpStep,
  turnOffTwoStep,
  turnOnTwoStep,
} from "./two-step.queries";

export type TwoStepStatus = { enabled: boolean; enabledAt: Date | null; recoveryCodesLeft: number };

export async function twoStepStatus(userId: string): Promise<TwoStepStatus> {
  const row = await findTwoStep(userId);
  if (!row?.enabledAt) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
  return { enabled: true, enabledAt: row.enabledAt, recoveryCodesLeft: await countUnusedRecoveryCodes(userId) };
}

/** A new secret, pending until confirmed: the only time it leaves the server. */
export async function beginTwoStep(userId: string): Promise<{ type: "begun"; secret: string; uri: string } | { type: "already_on" } | { type: "not_found" }> {
  const user = await findSellerUserForTwoStep(userId);
  if (!user) return { type: "not_found" };
  const secret = newTotpSecret();
  if (!(await savePendingSecret(userId, sealTotpSecret(secret, userId)))) return { type: "already_on" };
  return { type: "begun", secret, uri: totpUri(secret, user.email) };
}

export type Refused = { type: "wrong_code" } | { type: "wrong_password" } | { type: "locked"; retryAfter: number } | { type: "not_found" };
/** `sessionVersion`: the account's, moved on (every session made before is over); the session that turned it on is renewed with it. */
export type EnableOutcome = { type: "on"; recoveryCodes: string[]; sessionVersion: number } | { type: "not_begun" } | Refused;

/**
 * Turn on the pending secret: the password and a current code of that secret, within the account's sign-in limit.
 * Every session of the account ends (a session someone else holds does not outlive the second factor); `origin` is
 * for the email's link.
 */
export async function enableTwoStep(input: { userId: string; code: string; password: string; now?: number; origin?: string }): Promise<EnableOutcome> {
  return limitedForAccount(input.userId, async (user): Promise<EnableOutcome> => {
    if (!(await verifyPassword(input.password, user.passwordHash))) return { type: "wrong_password" };
    const row = await findTwoStep(user.id);
    if (!row || row.enabledAt) return { type: "not_begun" };
    const step = matchTotpStep(openTotpSecret(row.secretSealed, user.id), input.code.replace(/\s/g, ""), input.now);
    if (step === null) return { type: "wrong_code" };
    const codes = newRecoveryCodes();
    const sessionVersion = await turnOnTwoStep(
      { sellerUserId: user.id, sellerId: user.sellerId },
      step,
      codes.map((c) => hashRecoveryCode(user.id, c)),
    );
    if (sessionVersion === null) return { type: "wrong_code" };
    await mailTwoStepChange({ to: user.email, turned: "on", at: new Date(), origin: input.origin });
    return { type: "on", recoveryCodes: codes, sessionVersion };
  });
}

export type DisableOutcome = { type: "off" } | { type: "not_on" } | Refused;

/** Turn it off with a current code or an unused recovery code (spent either way), within the account's sign-in limit. */
export async function disableTwoStep(input: { userId: string; code: string; now?: number; origin?: string }): Promise<DisableOutcome> {
  return limitedForAccount(input.userId, async (user) => {
    const row = await findTwoStep(user.id);
    if (!row?.enabledAt) return { type: "not_on" };
    if (!(await checkSecondFactor(user.id, input.code, input.now))) return { type: "wrong_code" };
    if (!(await turnOffTwoStep({ sellerUserId: user.id, sellerId: user.sellerId }))) return { type: "not_on" };
    await mailTwoStepChange({ to: user.email, turned: "off", at: new Date(), origin: input.origin });
    return { type: "off" };
  });
}

export type RegenerateOutcome = { type: "replaced"; recoveryCodes: string[] } | { type: "not_on" } | Refused;

/**
 * Ten new recovery codes, shown once, in place of every earlier one (which stop working at once): the password and a
 * current code from the app (a recovery code cannot mint more), within the account's sign-in limit; audited.
 */
export async function regenerateRecoveryCodes(input: { userId: string; code: string; password: string; now?: number }): Promise<RegenerateOutcome> {
  return limitedForAccount(input.userId, async (user) => {
    if (!(await verifyPassword(input.password, user.passwordHash))) return { type: "wrong_password" };
    const row = await findTwoStep(user.id);
    if (!row?.enabledAt) return { type: "not_on" };
    const code = input.code.replace(/\s/g, "");
    const step = /^\d{6}$/.test(code) ? matchTotpStep(openTotpSecret(row.secretSealed, user.id), code, input.now) : null;
    if (step === null || !(await spendTotpStep(user.id, step))) return { type: "wrong_code" };
    const codes = newRecoveryCodes();
    const replaced = await replaceRecoveryCodes(
      { sellerUserId: user.id, sellerId: user.sellerId },
      codes.map((c) => hashRecoveryCode(user.id, c)),
    );
    return replaced ? { type: "replaced", recoveryCodes: codes } : { type: "not_on" };
  });
}

/**
 * A code typed at sign-in (or to turn the factor off) for a user whose second factor is on: six digits are a TOTP code
 * of this step, the one before or after, and never a step already used; anything else is tried as a recovery code.
 * Accepted codes are spent.
 */
export async function checkSecondFactor(userId: string, typed: string, now = Date.now()): Promise<boolean> {
  const row = await findTwoStep(userId);
  if (!row?.enabledAt || typed.length > 64) return false;
  const code = typed.replace(/\s/g, "");
  if (/^\d{6}$/.test(code)) {
    const step = matchTotpStep(openTotpSecret(row.secretSealed, userId), code, now);
    return step !== null && (await spendTotpStep(userId, step));
  }
  return normalRecoveryCode(code) !== null && (await spendRecoveryCode(userId, hashRecoveryCode(userId, code)));
}

/** Run a check of the signed-in user's password or code under the account's sign-in limit (a locked account checks nothing). */
export async function limitedForAccount<T extends { type: string }>(
  userId: string,
  check: (user: { id: string; email: string; sellerId: string; passwordHash: string }) => Promise<T>,
): Promise<T | Refused> {
  const user = await findSellerUserForTwoStep(userId);
  if (!user) return { type: "not_found" };
  const keys = signInKeys("seller", user.email, null);
  const verdict = await admitSignIn(keys);
  if (verdict.type === "locked") return verdict;
  const r = await check(user);
  if (r.type === "wrong_code" || r.type === "wrong_password") await recordSignInFailure(keys);
  else if (r.type === "on" || r.type === "off" || r.type === "replaced") await forgetAccountFailures(keys);
  return r;
}
