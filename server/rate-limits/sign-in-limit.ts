// Sign-in that resists guessing, for every way a person signs in (a seller's password, a human's emailed code) and for
// what sends them mail (sign-in codes, password resets): failures counted per account and per client address, in
// PostgreSQL so every instance counts the same. A few failures are free (typos); past them each failure locks the key
// for twice as long as the one before (1 s, 2 s, 4 s, ... up to 15 minutes), and while a key is locked nothing is
// checked at all, the right password included: guessing runs at a few attempts an hour, not 57 a second. A key idle
// for an hour starts again; a successful sign-in forgets its account's failures (not its address's).
import { clientBudgetKey } from "./rate-limit";
import { addFailures, clearFailures, lockedSeconds, type KeyRule } from "./sign-in-limit.queries";

const MAX_LOCK_SECONDS = 15 * 60;
const IDLE_SECONDS = 60 * 60;

/** Free failures before the backoff starts: an account's owner mistypes a few times; an address may be a shared NAT. */
const FREE = { account: 5, address: 20, mail: 5, mailAddress: 10 } as const;

export type SignInKind = "seller" | "human" | "reset";

/** The keys one attempt counts against: the account (its email, per kind of sign-in) and the client's address. */
export function signInKeys(kind: SignInKind, email: string, client: string | null): KeyRule[] {
  const account = email.trim().toLowerCase().slice(0, 320);
  if (kind === "reset") return withAddress([{ key: `reset:${account}`, free: FREE.mail }], `reset-address`, client, FREE.mailAddress);
  return withAddress([{ key: `${kind}:account:${account}`, free: FREE.account }], `${kind}:address`, client, FREE.address);
}

/** Keys for emails a person asks us to send (a sign-in code): per recipient and per address of the asker. */
export function mailKeys(kind: string, email: string, client: string | null): KeyRule[] {
  return withAddress([{ key: `${kind}:mail:${email.trim().toLowerCase().slice(0, 320)}`, free: FREE.mail }], `${kind}:mail-address`, client, FREE.mailAddress);
}

/**
 * The client's address key beside the account's, by its rate-limit budget key (an IPv6 address by its /64). A request
 * this process did not stamp (a test calling code directly) has no address, and only its account counts.
 */
function withAddress(keys: KeyRule[], prefix: string, client: string | null, free: number): KeyRule[] {
  return client ? [...keys, { key: `${prefix}:${clientBudgetKey(client)}`, free }] : keys;
}

export type SignInVerdict = { type: "allowed" } | { type: "locked"; retryAfter: number };

/** Whether this attempt may be checked at all. */
export async function admitSignIn(rules: KeyRule[]): Promise<SignInVerdict> {
  const s = await lockedSeconds(rules.map((r) => r.key));
  return s > 0 ? { type: "locked", retryAfter: s } : { type: "allowed" };
}

/** The attempt failed (or, for mail, was made): each key counts one more. */
export async function recordSignInFailure(rules: KeyRule[]): Promise<number> {
  return addFailures(rules, MAX_LOCK_SECONDS, IDLE_SECONDS);
}

/** The account's owner got in: its failures are forgotten (the address's stay until they go idle). */
export async function forgetAccountFailures(rules: KeyRule[]): Promise<void> {
  await clearFailures(rules.filter((r) => r.key.includes(":account:")).map((r) => r.key));
}

export { deleteIdleFailures } from "./sign-in-limit.queries";
export const SIGN_IN_IDLE_SECONDS = IDLE_SECONDS;
