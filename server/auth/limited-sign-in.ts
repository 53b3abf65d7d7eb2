// One sign-in attempt of a next-auth provider, limited per account and per client address
// (server/rate-limits/sign-in-limit.ts): a locked key refuses before anything is checked, the right password included;
// a failure counts; success forgets the account's failures. An unexpected error (a database refusing a byte) is a
// refusal, logged, never its text on the page.
import { clientAddress } from "../http/client-address";
import { hasControlCharacters } from "../http/invalid-text";
import { admitSignIn, forgetAccountFailures, recordSignInFailure, signInKeys, type SignInKind } from "../rate-limits/sign-in-limit";

/** What a refused sign-in says (next-auth passes a thrown message to the page as `error`): never a database's words. */
export const SIGN_IN_LOCKED_PREFIX = "locked:";

/** What a sign-in says when the password was right and the account asks for its second factor (server/auth/two-step.ts). */
export const CODE_REQUIRED = "code_required";

/**
 * Thrown by a check when the password was right but no code came with it: neither a failure nor a success, so the
 * account's failures stay (a wrong code counts; asking for the code step again forgets nothing).
 */
export class SecondFactorRequired extends Error {
  constructor() {
    super(CODE_REQUIRED);
  }
}

/** `headers`: next-auth's request headers (a plain object), whose peer stamp names the client (client-address.ts). */
export async function limitedSignIn<T>(kind: SignInKind, email: string, headers: unknown, check: () => Promise<T | null>): Promise<T | null> {
  if (hasControlCharacters(email)) return null;
  const h = new Headers();
  for (const [k, v] of Object.entries((headers ?? {}) as Record<string, unknown>)) if (typeof v === "string") h.set(k, v);
  const keys = signInKeys(kind, email, clientAddress(h));
  const verdict = await admitSignIn(keys);
  if (verdict.type === "locked") throw new Error(`${SIGN_IN_LOCKED_PREFIX}${verdict.retryAfter}`);
  let found: T | null;
  try {
    found = await check();
  } catch (e) {
    if (e instanceof SecondFactorRequired) throw e;
    console.error(`[auth] ${kind} sign-in failed:`, e instanceof Error ? e.message : e);
    found = null;
  }
  if (found) await forgetAccountFailures(keys);
  else await recordSignInFailure(keys);
  return found;
}
