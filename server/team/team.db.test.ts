// A seller's team from an attacker's side: a viewer reads but every change (money, settings, the team) is refused with
// FORBIDDEN by the tRPC tier, from the request after a demotion on; an invitation link works once, within its week, and
// makes an account with the invited role; the last owner cannot be demoted.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { createCaller, sessionFor } from "../testing/trpc";
import { acceptInvite, INVITE_TTL_MS } from "../auth/invite-member";

let sellerId: string;
let ownerId: string;
const ORIGIN = "http://console.test";
const owner = () => createCaller({ ...sessionFor(ownerId, sellerId), origin: async () => ORIGIN });

/** The token of the newest invitation emailed to `to` (the dev outbox, as tests run). */
async function invitationToken(to: string): Promise<string> {
  const m = await db.outboxMessage.findFirstOrThrow({ where: { to }, orderBy: { createdAt: "desc" } });
  return /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!;
}

beforeAll(async () => {
  const tag = randomBytes(4).toString("hex");
  const s = await seedMarketSeller(db, {
    slug: `tm-${tag}`,
    name: "TM",
    hosts: [`tm-${tag}.test`],
    email: `owner-${tag}@tm.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  ({ sellerId, userId: ownerId } = s);
});

describe("team roles and invitations", () => {
  it("an invitation link makes a viewer once; the viewer reads and every change is FORBIDDEN", async () => {
    const email = `viewer-${randomBytes(3).toString("hex")}@tm.test`;
    const invite = await owner().team.invite({ email: email.toUpperCase(), role: "viewer" });
    expect(invite).toMatchObject({ email, role: "viewer" });
    const token = await invitationToken(email);
    expect((await db.outboxMessage.findFirstOrThrow({ where: { to: email } })).text).toContain(`${ORIGIN}/console/invite?token=`);
    // Kept as its hash only.
    expect(await db.sellerInvite.count({ where: { tokenHash: token } })).toBe(0);

    // Two acceptances at once: one account.
    const both = await Promise.all([
      acceptInvite({ token, name: "V", password: "a-long-password-1" }),
      acceptInvite({ token, name: "V", password: "a-long-password-2" }),
    ]);
    expect(both.filter((r) => r.type === "joined")).toHaveLength(1);
    expect(await acceptInvite({ token, name: "V", password: "a-long-password-3" })).toEqual({ type: "invalid_token" });
    const viewerUser = await db.sellerUser.findUniqueOrThrow({ where: { email } });
    expect(viewerUser.role).toBe("viewer");

    const viewer = createCaller({ ...sessionFor(viewerUser.id, sellerId), origin: async () => ORIGIN });
    // Reads work.
    expect((await viewer.payments.refunds({})).refunds).toEqual([]);
    expect((await viewer.team.members()).members.map((m) => m.role).sort()).toEqual(["owner", "viewer"]);
    // Money and settings are refused.
    const refused = { code: "FORBIDDEN" };
    await expect(viewer.payments.refund({ paymentId: "pay_nothing" })).rejects.toMatchObject(refused);
    await expect(viewer.catalog.updatePrice({ operationKey: "aggregates", priceUsd: "0.01" } as never)).rejects.toMatchObject(refused);
    await expect(viewer.settings.update({} as never)).rejects.toMatchObject(refused);
    await expect(viewer.team.invite({ email: "x@tm.test", role: "owner" })).rejects.toMatchObject(refused);
    await expect(viewer.team.setRole({ userId: viewerUser.id, role: "owner" })).rejects.toMatchObject(refused);
    expect((await db.sellerUser.findUniqueOrThrow({ where: { id: viewerUser.id } })).role).toBe("viewer");
  });

  it("an expired or made-up link makes nothing; a demotion counts from the next request; the last owner stays", async () => {
    const email = `late-${randomBytes(3).toString("hex")}@tm.test`;
    await owner().team.invite({ email, role: "owner" });
    const token = await invitationToken(email);
    expect(await acceptInvite({ token, name: "L", password: "a-long-password-1" }, new Date(Date.now() + INVITE_TTL_MS + 1000))).toEqual({
      type: "invalid_token",
    });
    expect(await acceptInvite({ token: "A".repeat(43), name: "L", password: "a-long-password-1" })).toEqual({ type: "invalid_token" });
    expect(await acceptInvite({ token, name: "L", password: "short" })).toEqual({ type: "weak_password" });
    expect(await acceptInvite({ token, name: "L", password: "a-long-password-1" })).toEqual({ type: "joined", email, role: "owner" });

    const second = await db.sellerUser.findUniqueOrThrow({ where: { email } });
    const secondCaller = createCaller(sessionFor(second.id, sellerId));
    await owner().team.setRole({ userId: second.id, role: "viewer" });
    await expect(secondCaller.team.setRole({ userId: ownerId, role: "viewer" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(owner().team.setRole({ userId: ownerId, role: "viewer" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Another seller's user is no one here.
    await expect(owner().team.setRole({ userId: newId("usr"), role: "viewer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
