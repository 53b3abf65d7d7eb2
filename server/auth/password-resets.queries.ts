// Seller password resets: tokens kept as their SHA-256 only; a reset is used once, in the transaction that changes the
// password, ends every session (the session version) and writes the audit row.
import { db, type Tx } from "../db/client";
import { recordAudit } from "../audit/audit.queries";
import { newId } from "../lib/ids";

export async function findSellerUserForReset(email: string): Promise<{ id: string; email: string; sellerId: string } | null> {
  return db.sellerUser.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true, sellerId: true } });
}

export async function countRecentResets(sellerUserId: string, since: Date): Promise<number> {
  return db.passwordReset.count({ where: { sellerUserId, createdAt: { gte: since } } });
}

export async function createPasswordReset(input: { sellerUserId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.passwordReset.create({ data: { id: newId("pwr"), ...input } });
}

/**
 * Use the reset named by `tokenHash` (unused, unexpired) to set `passwordHash`: the reset and every other open one of
 * the user are spent, the session version bumped (all sessions end), an audit row written. False when the token is
 * unknown, used or expired.
 */
export async function spendPasswordReset(tokenHash: string, passwordHash: string, now: Date): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const reset = await tx.passwordReset.findUnique({ where: { tokenHash }, include: { sellerUser: { select: { id: true, sellerId: true } } } });
    if (!reset || reset.usedAt || reset.expiresAt <= now) return false;
    const spent = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) return false;
    await tx.passwordReset.updateMany({ where: { sellerUserId: reset.sellerUserId, usedAt: null }, data: { usedAt: now } });
    await tx.sellerUser.update({ where: { id: reset.sellerUserId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await recordAudit(tx, {
      sellerId: reset.sellerUser.sellerId,
      actorId: reset.sellerUser.id,
      action: "account.password_reset",
      targetId: reset.sellerUser.id,
      before: null,
      after: null,
    });
    return true;
  });
}
