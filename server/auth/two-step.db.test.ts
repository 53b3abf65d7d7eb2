// A seller's second factor (TOTP) from the attacker's side, against PostgreSQL and the console's own sign-in provider:
// the right password alone makes no session; a wrong code is refused and counts against the sign-in limit; a code is
// used once (twice at the same time too); a recovery code is used once; a password reset leaves the factor on; the
// secret and the recovery codes are not readable in the database; turning it on and off asks for proof and is audited.
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { authenticateSeller } from "./authenticate-seller";
import { authOptions } from "./options";
import { requestPasswordReset, resetPassword } from "./reset-password";
import { beginTwoStep, checkSecondFactor, disableTwoStep, enableTwoStep, twoStepStatus } from "./two-step";

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
});
