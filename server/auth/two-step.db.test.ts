// A seller's second factor (TOTP) from the attacker's side, against PostgreSQL and the console's own sign-in provider:
// the right password alone makes no session; a wrong code is refused and counts against the sign-in limit; a code is
// used once (twice at the same time too); a recovery code is used once; a password reset leaves the factor on; the
// secret and the recovery codes are not readable in the database; turning it on and off asks for proof and is audited.
// New recovery codes ask for the password and a current code, and the old ones stop working at once; turning it on ends
// every other session of the account (a stolen cookie does not outlive it); the account's address hears of each change.
import { encode } from "next-auth/jwt";
import { getServerSession } from "next-auth/next";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { authenticateSeller } from "./authenticate-seller";
import { authOptions } from "./options";
import { renewedSessionCookie, sessionCookieName } from "./renew-session";
import { requestPasswordReset, resetPassword } from "./reset-password";
import { beginTwoStep, checkSecondFactor, disableTwoStep, enableTwoStep, regenerateRecoveryCodes, twoStepStatus } from "./two-step";

const PASSWORD = "seller-password-0123";
const at = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** The console's seller sign-in, as next-auth runs it for a POST to /api/auth/callback/seller: a user (a session) or null. */
async function signIn(email: string, password: string, code?: string): Promise<{ id: string } | null> {
  // next-auth keeps a credentials provider's own settings (its id, authorize) under `options`.
  const providers = authOptions().providers as unknown as {
    options?: { id?: string; authorize: (c: Record<string, string>, req: unknown) => Promise<{ id: string } | null> };
  }[];
  const provider = providers.find((p) => p.options?.id === "seller")!;
  return provider.options!.authorize({ email, password, ...(code === undefined ? {} : { code }) }, { headers: {} });
}

/** A browser's session after a successful sign-in: the `Cookie` header next-auth's session cookie makes, as it makes it. */
async function sessionCookie(email: string, password: string, code?: string): Promise<string> {
  const user = await signIn(email, password, code);
  if (!user) throw new Error("not signed in");
  const options = authOptions();
  const token = await options.callbacks!.jwt!({ token: { sub: user.id, email }, user, account: null } as never);
  return `${sessionCookieName()}=${await encode({ token, secret: options.secret!, maxAge: options.session!.maxAge! })}`;
}

/** Whose session a request with this `Cookie` header has, as every console page and procedure reads it; null: none. */
async function sessionUser(cookie: string): Promise<string | null> {
  const cookies = Object.fromEntries(cookie.split("; ").map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)]));
  const res = { getHeader() {}, setCookie() {}, setHeader() {} };
  const s = await getServerSession({ headers: { cookie }, cookies } as never, res as never, authOptions());
  return s?.user?.id || null;
}

/** The messages the mail path wrote to this address (the test outbox). */
const mailTo = (to: string) => db.outboxMessage.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

/** A fresh seller account with two-step authentication on: its email, id, secret, recovery codes and the step-time it was confirmed at. */
async function enrolledAccount() {
  const tag = newId("tst").slice(4, 12);
  const email = `owner-${tag}@two-step.test`;
  const s = await seedMarketSeller(db, {
    slug: `two-step-${tag}`,
    name: "Two step",
    hosts: [`two-step-${tag}.test`],
    email,
    password: PASSWORD,
    payTo: null,
    signingSecret: null,
  });
  const begun = await beginTwoStep(s.userId);
  if (begun.type !== "begun") throw new Error(begun.type);
  const now = Date.now();
  const on = await enableTwoStep({ userId: s.userId, code: at(begun.secret, now), password: PASSWORD, now });
  if (on.type !== "on") throw new Error(on.type);
  return { ...s, email, secret: begun.secret, uri: begun.uri, recoveryCodes: on.recoveryCodes, now };
}

describe("two-step authentication for seller accounts", () => {
  it("turning it on asks for the password and a current code of the shown secret; the secret is sealed and never shown again", async () => {
    const tag = newId("tst").slice(4, 12);
    const email = `enrol-${tag}@two-step.test`;
    const s = await seedMarketSeller(db, {
      slug: `enrol-${tag}`,
      name: "Enrol",
      hosts: [`enrol-${tag}.test`],
      email,
      password: PASSWORD,
      payTo: null,
      signingSecret: null,
    });
    const begun = await beginTwoStep(s.userId);
    expect(begun.type).toBe("begun");
    if (begun.type !== "begun") return;
    expect(begun.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const now = Date.now();
    expect(await enableTwoStep({ userId: s.userId, code: at(begun.secret, now), password: "not-the-password", now })).toEqual({ type: "wrong_password" });
    expect(await enableTwoStep({ userId: s.userId, code: "000000" === at(begun.secret, now) ? "111111" : "000000", password: PASSWORD, now })).toEqual({
      type: "wrong_code",
    });
    // Pending is not on: the password alone still signs in.
    expect(await signIn(email, PASSWORD)).toMatchObject({ id: s.userId });
    const on = await enableTwoStep({ userId: s.userId, code: at(begun.secret, now), password: PASSWORD, now });
    expect(on.type).toBe("on");
    if (on.type !== "on") return;
    expect(on.recoveryCodes).toHaveLength(10);
    expect(new Set(on.recoveryCodes).size).toBe(10);
    const rows = JSON.stringify([
      await db.sellerTwoStep.findUnique({ where: { sellerUserId: s.userId } }),
      await db.sellerRecoveryCode.findMany({ where: { sellerUserId: s.userId } }),
    ]);
    expect(rows).not.toContain(begun.secret);
    for (const c of on.recoveryCodes) expect(rows).not.toContain(c.replace(/-/g, ""));
    const status = await twoStepStatus(s.userId);
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(status)).not.toContain(begun.secret);
    // A new secret cannot replace the one that is on (a session left open cannot swap the owner's authenticator).
    expect(await beginTwoStep(s.userId)).toEqual({ type: "already_on" });
    expect(await db.auditLog.count({ where: { sellerId: s.sellerId, action: "account.two_step_enable", targetId: s.userId } })).toBe(1);
  });

  it("the right password alone makes no session; a wrong code is refused; the confirming code cannot be replayed", async () => {
    const a = await enrolledAccount();
    await expect(signIn(a.email, PASSWORD)).rejects.toThrow("code_required");
    await expect(authenticateSeller(a.email, PASSWORD)).rejects.toThrow("code_required");
    // A wrong password with a code says nothing about the code.
    expect(await signIn(a.email, "wrong-password-0000", at(a.secret, a.now + 30_000))).toBeNull();
    expect(await signIn(a.email, PASSWORD, "123456" === at(a.secret, Date.now()) ? "654321" : "123456")).toBeNull();
    expect(await signIn(a.email, PASSWORD, at(a.secret, a.now))).toBeNull();
    const next = at(a.secret, a.now + 30_000);
    expect(await signIn(a.email, PASSWORD, next)).toMatchObject({ id: a.userId });
    expect(await signIn(a.email, PASSWORD, next)).toBeNull();
  });

  it("the same code sent twice at once is accepted once", async () => {
    const a = await enrolledAccount();
    const code = at(a.secret, a.now + 30_000);
    const results = await Promise.all(Array.from({ length: 5 }, () => checkSecondFactor(a.userId, code, a.now + 30_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("a recovery code signs in once", async () => {
    const a = await enrolledAccount();
    const code = a.recoveryCodes[3]!;
    expect(await signIn(a.email, PASSWORD, code.toUpperCase().replace(/-/g, " "))).toMatchObject({ id: a.userId });
    expect(await signIn(a.email, PASSWORD, code)).toBeNull();
    expect(await signIn(a.email, PASSWORD, "abcd-efgh-jkmn")).toBeNull();
    expect((await twoStepStatus(a.userId)).recoveryCodesLeft).toBe(9);
  });

  it("wrong codes count against the account's sign-in limit: past it, even the right code is refused", async () => {
    const a = await enrolledAccount();
    const wrong = (i: number) => String((Number(at(a.secret, Date.now())) + 1 + i) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 6; i++) expect(await signIn(a.email, PASSWORD, wrong(i))).toBeNull();
    await expect(signIn(a.email, PASSWORD, at(a.secret, a.now + 30_000))).rejects.toThrow(/^locked:\d+$/);
    const row = await db.signInFailure.findUnique({ where: { key: `seller:account:${a.email}` } });
    expect(row?.failures).toBeGreaterThanOrEqual(6);
  });

  it("asking for the code step again does not forget the account's failures", async () => {
    const a = await enrolledAccount();
    for (let i = 0; i < 3; i++) expect(await signIn(a.email, PASSWORD, "abcd-efgh-jkmn")).toBeNull();
    await expect(signIn(a.email, PASSWORD)).rejects.toThrow("code_required");
    expect((await db.signInFailure.findUnique({ where: { key: `seller:account:${a.email}` } }))?.failures).toBe(3);
  });

  it("a password reset does not turn the second factor off", async () => {
    const a = await enrolledAccount();
    await requestPasswordReset({ email: a.email, origin: "https://shop.example", client: null });
    const m = await db.outboxMessage.findFirstOrThrow({ where: { to: a.email }, orderBy: { createdAt: "desc" } });
    const token = /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!;
    expect(await resetPassword({ token, password: "a-new-password-456" })).toEqual({ type: "reset" });
    await expect(signIn(a.email, "a-new-password-456")).rejects.toThrow("code_required");
    expect(await signIn(a.email, "a-new-password-456", at(a.secret, a.now + 30_000))).toMatchObject({ id: a.userId });
  });

  it("turning it off asks for a current code (or a recovery code), counts wrong ones, and is audited", async () => {
    const a = await enrolledAccount();
    expect(await disableTwoStep({ userId: a.userId, code: at(a.secret, a.now) })).toEqual({ type: "wrong_code" });
    expect(await disableTwoStep({ userId: a.userId, code: "abcd-efgh-jkmn" })).toEqual({ type: "wrong_code" });
    expect((await db.signInFailure.findUnique({ where: { key: `seller:account:${a.email}` } }))?.failures).toBe(2);
    expect(await disableTwoStep({ userId: a.userId, code: a.recoveryCodes[0]! })).toEqual({ type: "off" });
    expect(await db.sellerRecoveryCode.count({ where: { sellerUserId: a.userId } })).toBe(0);
    expect(await db.sellerTwoStep.count({ where: { sellerUserId: a.userId } })).toBe(0);
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId, action: "account.two_step_disable", targetId: a.userId } })).toBe(1);
    expect(await signIn(a.email, PASSWORD)).toMatchObject({ id: a.userId });
    expect(await disableTwoStep({ userId: a.userId, code: at(a.secret, Date.now()) })).toEqual({ type: "not_on" });
  });

  it("new recovery codes ask for the password and a current code from the app; the old codes stop working at once", async () => {
    const a = await enrolledAccount();
    const next = at(a.secret, a.now + 30_000);
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: next, password: "not-the-password", now: a.now + 30_000 })).toEqual({
      type: "wrong_password",
    });
    // The confirming code again (its step is used), a made-up one, and a recovery code (one cannot mint more) are refused.
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: at(a.secret, a.now), password: PASSWORD, now: a.now })).toEqual({ type: "wrong_code" });
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: next === "123456" ? "654321" : "123456", password: PASSWORD, now: a.now + 30_000 })).toEqual(
      {
        type: "wrong_code",
      },
    );
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: a.recoveryCodes[0]!, password: PASSWORD })).toEqual({ type: "wrong_code" });
    expect((await db.signInFailure.findUnique({ where: { key: `seller:account:${a.email}` } }))?.failures).toBe(4);
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId, action: "account.two_step_recovery_codes" } })).toBe(0);

    const r = await regenerateRecoveryCodes({ userId: a.userId, code: next, password: PASSWORD, now: a.now + 30_000 });
    expect(r.type).toBe("replaced");
    if (r.type !== "replaced") return;
    expect(new Set(r.recoveryCodes).size).toBe(10);
    expect(r.recoveryCodes.filter((c) => a.recoveryCodes.includes(c))).toEqual([]);
    // The code that made them is spent too.
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: next, password: PASSWORD, now: a.now + 30_000 })).toEqual({ type: "wrong_code" });
    // Every old code is refused at sign-in, the unused ones included; a new one signs in once.
    for (const old of a.recoveryCodes.slice(0, 3)) expect(await signIn(a.email, PASSWORD, old)).toBeNull();
    expect(await signIn(a.email, PASSWORD, r.recoveryCodes[0]!)).toMatchObject({ id: a.userId });
    expect(await signIn(a.email, PASSWORD, r.recoveryCodes[0]!)).toBeNull();
    expect((await twoStepStatus(a.userId)).recoveryCodesLeft).toBe(9);
    const stored = JSON.stringify(await db.sellerRecoveryCode.findMany({ where: { sellerUserId: a.userId } }));
    for (const c of r.recoveryCodes) expect(stored).not.toContain(c.replace(/-/g, ""));
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId, action: "account.two_step_recovery_codes", targetId: a.userId } })).toBe(1);
    // Off, there is nothing to replace.
    expect(await disableTwoStep({ userId: a.userId, code: r.recoveryCodes[1]! })).toEqual({ type: "off" });
    expect(await regenerateRecoveryCodes({ userId: a.userId, code: at(a.secret, a.now + 60_000), password: PASSWORD, now: a.now + 60_000 })).toEqual({
      type: "not_on",
    });
  });

  it("turning it on ends every other session of the account: another browser's cookie no longer works; the one that turned it on does", async () => {
    const tag = newId("tst").slice(4, 12);
    const email = `sessions-${tag}@two-step.test`;
    const s = await seedMarketSeller(db, {
      slug: `sessions-${tag}`,
      name: "Sessions",
      hosts: [`sessions-${tag}.test`],
      email,
      password: PASSWORD,
      payTo: null,
      signingSecret: null,
    });
    const mine = await sessionCookie(email, PASSWORD);
    const theirs = await sessionCookie(email, PASSWORD); // a stolen cookie, or a laptop left signed in
    expect(await sessionUser(mine)).toBe(s.userId);
    expect(await sessionUser(theirs)).toBe(s.userId);

    const begun = await beginTwoStep(s.userId);
    if (begun.type !== "begun") throw new Error(begun.type);
    const on = await enableTwoStep({ userId: s.userId, code: at(begun.secret, Date.now()), password: PASSWORD });
    if (on.type !== "on") throw new Error(on.type);
    // What twoStep.enable answers with: this request's session, issued again with the account's new session version.
    const renewed = await renewedSessionCookie(new Headers({ cookie: mine }), s.userId, on.sessionVersion);
    expect(renewed).toMatch(new RegExp(`^${sessionCookieName()}=[^;]+; Path=/; Expires=[^;]+; HttpOnly; SameSite=Lax`));
    const renewedCookie = renewed!.split(";")[0]!;

    expect(await sessionUser(theirs)).toBeNull();
    expect(await sessionUser(mine)).toBeNull(); // the old copy of the one that turned it on as well
    expect(await sessionUser(renewedCookie)).toBe(s.userId);
    // Renewal issues nothing for a session of another account, or for no session.
    const other = await enrolledAccount();
    expect(await renewedSessionCookie(new Headers({ cookie: renewedCookie }), other.userId, on.sessionVersion)).toBeNull();
    expect(await renewedSessionCookie(new Headers(), s.userId, on.sessionVersion)).toBeNull();
  });

  it("the account's address is emailed once when it is turned on and once when it is turned off, never with a secret or a code", async () => {
    const a = await enrolledAccount();
    let mails = await mailTo(a.email);
    expect(mails.map((m) => m.subject)).toEqual(["Two-step authentication turned on"]);
    expect(mails[0]!.text).toContain("every other session of your account was signed out");
    // Refused attempts and new recovery codes send nothing.
    expect((await disableTwoStep({ userId: a.userId, code: "abcd-efgh-jkmn" })).type).toBe("wrong_code");
    expect((await regenerateRecoveryCodes({ userId: a.userId, code: at(a.secret, a.now + 30_000), password: PASSWORD, now: a.now + 30_000 })).type).toBe(
      "replaced",
    );
    expect(await mailTo(a.email)).toHaveLength(1);
    expect(await disableTwoStep({ userId: a.userId, code: at(a.secret, a.now + 60_000), now: a.now + 60_000, origin: "https://shop.example" })).toEqual({
      type: "off",
    });
    mails = await mailTo(a.email);
    expect(mails.map((m) => m.subject)).toEqual(["Two-step authentication turned on", "Two-step authentication turned off"]);
    expect(mails[1]!.text).toContain("https://shop.example/console/reset-password");
    const all = mails.map((m) => m.text).join("\n");
    expect(all).not.toContain(a.secret);
    for (const c of a.recoveryCodes) expect(all).not.toContain(c);
  });
});
