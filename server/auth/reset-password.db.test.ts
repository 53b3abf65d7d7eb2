// A seller's password reset by email, from both sides: the answer never says whether an account uses the address; the
// emailed token is stored only as its hash, works once, expires, and ends every session (the session version) with an
// audit row; requests are limited per address asked for.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { authenticateSeller } from "./authenticate-seller";
import { requestPasswordReset, resetPassword } from "./reset-password";

let s: { sellerId: string; userId: string };
let email: string;

/** The token of the newest reset email to `to` (the dev outbox, as tests run). */
async function emailedToken(to: string): Promise<string> {
  const m = await db.outboxMessage.findFirstOrThrow({ where: { to }, orderBy: { createdAt: "desc" } });
  expect(m.text).toContain("https://shop.example/console/reset-password?token=");
  return /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!;
}

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  email = `owner-${tag}@reset.test`;
  s = await seedMarketSeller(db, {
    slug: `reset-${tag}`,
    name: "Reset",
    hosts: [`reset-${tag}.test`],
    email,
    password: "old-password-123",
    payTo: null,
    signingSecret: null,
  });
});

describe("password reset by email", () => {
  it("answers the same for an unknown address, and sends nothing", async () => {
    const ghost = `ghost-${newId("tst")}@reset.test`;
    expect(await requestPasswordReset({ email: ghost, origin: "https://shop.example", client: null })).toEqual({ type: "sent" });
    expect(await db.outboxMessage.count({ where: { to: ghost } })).toBe(0);
  });

  it("a link's token is kept hashed, works once, sets the password and ends every session, with an audit row", async () => {
    const before = (await db.sellerUser.findUniqueOrThrow({ where: { id: s.userId } })).sessionVersion;
    expect(await requestPasswordReset({ email: email.toUpperCase(), origin: "https://shop.example", client: null })).toEqual({ type: "sent" });
    const token = await emailedToken(email);
    const row = await db.passwordReset.findFirstOrThrow({ where: { sellerUserId: s.userId }, orderBy: { createdAt: "desc" } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(await db.passwordReset.findMany({ where: { sellerUserId: s.userId } }))).not.toContain(token);
    expect(await resetPassword({ token, password: "short" })).toEqual({ type: "weak_password" });
    expect(await resetPassword({ token, password: "a-new-password-456" })).toEqual({ type: "reset" });
    expect(await resetPassword({ token, password: "another-password-789" })).toEqual({ type: "invalid_token" });
    expect(await authenticateSeller(email, "old-password-123")).toBeNull();
    expect(await authenticateSeller(email, "a-new-password-456")).toMatchObject({ id: s.userId });
    expect((await db.sellerUser.findUniqueOrThrow({ where: { id: s.userId } })).sessionVersion).toBe(before + 1);
    expect(await db.auditLog.count({ where: { sellerId: s.sellerId, action: "account.password_reset" } })).toBe(1);
  });

  it("an expired or made-up token does nothing", async () => {
    await requestPasswordReset({ email, origin: "https://shop.example", client: null });
    const token = await emailedToken(email);
    await db.passwordReset.updateMany({ where: { sellerUserId: s.userId, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await resetPassword({ token, password: "expired-password-000" })).toEqual({ type: "invalid_token" });
    expect(await resetPassword({ token: "A".repeat(43), password: "made-up-password-000" })).toEqual({ type: "invalid_token" });
    expect(await authenticateSeller(email, "a-new-password-456")).toMatchObject({ id: s.userId });
  });

  it("asking again and again is limited: per account three links an hour, and the asking locks with backoff", async () => {
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await requestPasswordReset({ email, origin: "https://shop.example", client: "192.0.2.44" }));
    expect(results.filter((r) => r.type === "locked").length).toBeGreaterThan(0);
    expect(await db.passwordReset.count({ where: { sellerUserId: s.userId, createdAt: { gte: new Date(Date.now() - 3_600_000) } } })).toBeLessThanOrEqual(3);
  });
});
