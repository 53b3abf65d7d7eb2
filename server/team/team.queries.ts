// A seller's team: members and their roles, invitations (single-use, kept as their token's SHA-256), and the role the
// tRPC tiers check on every change. Scoped to the seller from the session.
import { db, type Tx } from "../db/client";
import { recordAudit } from "../audit/audit.queries";
import { newId } from "../lib/ids";
import type { TeamRole } from "./roles";

/** The user's role now (not the one at sign-in: a demotion counts from the next request), or null for no such user of the seller. */
export async function findMemberRole(sellerId: string, userId: string): Promise<TeamRole | null> {
  const u = await db.sellerUser.findFirst({ where: { id: userId, sellerId }, select: { role: true } });
  return (u?.role as TeamRole | undefined) ?? null;
}

export async function findTeam(sellerId: string) {
  const [members, invites] = await Promise.all([
    db.sellerUser.findMany({
      where: { sellerId },
      orderBy: { createdAt: "asc" },
      select: { id: true, email: true, name: true, role: true, lastLoginAt: true },
    }),
    db.sellerInvite.findMany({
      where: { sellerId, acceptedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
    }),
  ]);
  return { members, invites };
}

export async function emailHasAccount(email: string): Promise<boolean> {
  return (await db.sellerUser.count({ where: { email } })) > 0;
}

export async function createInvite(input: { sellerId: string; actorId: string; email: string; role: TeamRole; tokenHash: string; expiresAt: Date }) {
  return db.$transaction(async (tx: Tx) => {
    const invite = await tx.sellerInvite.create({
      data: {
        id: newId("inv"),
        sellerId: input.sellerId,
        email: input.email,
        role: input.role,
        tokenHash: input.tokenHash,
        invitedBy: input.actorId,
        expiresAt: input.expiresAt,
      },
      select: { id: true, email: true, role: true, expiresAt: true },
    });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "team.invite",
      targetId: invite.id,
      before: null,
      after: { email: input.email, role: input.role },
    });
    return invite;
  });
}

/**
 * Accept the invitation named by `tokenHash`: spent by one guarded update (accepted_at still null, not expired), so two
 * racing acceptances make one account; the account is created with the invitation's email and role. Null when the
 * token is unknown, used or expired, or the email has an account by now.
 */
export async function spendInvite(tokenHash: string, account: { name: string; passwordHash: string }, now: Date) {
  return db.$transaction(async (tx: Tx) => {
    const invite = await tx.sellerInvite.findUnique({ where: { tokenHash } });
    if (!invite || invite.acceptedAt || invite.expiresAt <= now) return null;
    const spent = await tx.sellerInvite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: now } });
    if (spent.count !== 1) return null;
    if (await tx.sellerUser.findUnique({ where: { email: invite.email }, select: { id: true } })) return null;
    const user = await tx.sellerUser.create({
      data: { id: newId("usr"), sellerId: invite.sellerId, email: invite.email, name: account.name, passwordHash: account.passwordHash, role: invite.role },
      select: { id: true, email: true, role: true, sellerId: true },
    });
    await recordAudit(tx, { sellerId: invite.sellerId, actorId: user.id, action: "team.join", targetId: user.id, before: null, after: { role: invite.role } });
    return user;
  });
}

/** Change a member's role; refuses to leave the seller without an owner. */
export async function updateMemberRole(input: { sellerId: string; actorId: string; userId: string; role: TeamRole }) {
  return db.$transaction(async (tx: Tx) => {
    const user = await tx.sellerUser.findFirst({ where: { id: input.userId, sellerId: input.sellerId }, select: { id: true, role: true } });
    if (!user) return { type: "not_found" as const };
    if (user.role === "owner" && input.role !== "owner") {
      const owners = await tx.sellerUser.count({ where: { sellerId: input.sellerId, role: "owner" } });
      if (owners <= 1) return { type: "last_owner" as const };
    }
    await tx.sellerUser.update({ where: { id: user.id }, data: { role: input.role } });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "team.role",
      targetId: user.id,
      before: { role: user.role },
      after: { role: input.role },
    });
    return { type: "updated" as const };
  });
}
