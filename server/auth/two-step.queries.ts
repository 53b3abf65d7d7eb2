// A seller user's second factor in PostgreSQL: the sealed TOTP secret (pending until confirmed), the last time step
// accepted (a guarded update: a step is accepted once, whatever runs at the same time), the recovery codes' hashes
// (each spent by one guarded update, replaced all at once), and the audit rows of turning it on and off and of new
// recovery codes, in the change's transaction.
import { db, type Tx } from "../db/client";
import { recordAudit } from "../audit/audit.queries";
import { newId } from "../lib/ids";

export type TwoStepRow = { sellerUserId: string; secretSealed: string; enabledAt: Date | null; lastUsedStep: number | null };

export async function findTwoStep(sellerUserId: string): Promise<TwoStepRow | null> {
  return db.sellerTwoStep.findUnique({ where: { sellerUserId }, select: { sellerUserId: true, secretSealed: true, enabledAt: true, lastUsedStep: true } });
}

export async function countUnusedRecoveryCodes(sellerUserId: string): Promise<number> {
  return db.sellerRecoveryCode.count({ where: { sellerUserId, usedAt: null } });
}

export async function findSellerUserForTwoStep(id: string): Promise<{ id: string; email: string; sellerId: string; passwordHash: string } | null> {
  return db.sellerUser.findUnique({ where: { id }, select: { id: true, email: true, sellerId: true, passwordHash: true } });
}

/** A new pending secret, replacing a pending one; false when two-step authentication is already on (nothing changes). */
export async function savePendingSecret(sellerUserId: string, secretSealed: string): Promise<boolean> {
  const n = await db.$executeRaw`
    INSERT INTO seller_two_step (seller_user_id, secret_sealed) VALUES (${sellerUserId}, ${secretSealed})
    ON CONFLICT (seller_user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_used_step = NULL, created_at = now()
    WHERE seller_two_step.enabled_at IS NULL`;
  return n === 1;
}

/** Accept `step` for this user if it is later than every step accepted before (one statement: concurrent uses race for it). */
export async function spendTotpStep(sellerUserId: string, step: number): Promise<boolean> {
  const r = await db.sellerTwoStep.updateMany({
    where: { sellerUserId, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
    data: { lastUsedStep: step },
  });
  return r.count === 1;
}

export async function spendRecoveryCode(sellerUserId: string, codeHash: string): Promise<boolean> {
  const r = await db.sellerRecoveryCode.updateMany({ where: { sellerUserId, codeHash, usedAt: null }, data: { usedAt: new Date() } });
  return r.count === 1;
}

type Actor = { sellerUserId: string; sellerId: string };

/**
 * Turn the pending secret on with the step its confirming code used, replacing any recovery codes with these hashes,
 * with the audit row, and move the account's session version on (every session made before is over: sessions.queries.ts).
 * The new session version, for the session that turned it on to be renewed with; null when there is no pending secret
 * (already on, or never begun) or the step was used.
 */
export async function turnOnTwoStep(a: Actor, step: number, codeHashes: string[]): Promise<number | null> {
  return db.$transaction(async (tx: Tx) => {
    const on = await tx.sellerTwoStep.updateMany({
      where: { sellerUserId: a.sellerUserId, enabledAt: null, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
      data: { enabledAt: new Date(), lastUsedStep: step },
    });
    if (on.count !== 1) return null;
    await writeRecoveryCodes(tx, a.sellerUserId, codeHashes);
    const user = await tx.sellerUser.update({ where: { id: a.sellerUserId }, data: { sessionVersion: { increment: 1 } }, select: { sessionVersion: true } });
    await recordAudit(tx, twoStepAudit(a, "account.two_step_enable", false, true));
    return user.sessionVersion;
  });
}

/**
 * New recovery codes in place of every earlier one (used or not), with the audit row, while two-step authentication is
 * on: the old codes stop working when this commits. False when it is not on.
 */
export async function replaceRecoveryCodes(a: Actor, codeHashes: string[]): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    // Locks the factor's row: a concurrent turn-off waits for this, and a replacement after it finds nothing.
    const on = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM seller_two_step WHERE seller_user_id = ${a.sellerUserId} AND enabled_at IS NOT NULL FOR UPDATE`;
    if (on.length !== 1) return false;
    await writeRecoveryCodes(tx, a.sellerUserId, codeHashes);
    await recordAudit(tx, {
      sellerId: a.sellerId,
      actorId: a.sellerUserId,
      action: "account.two_step_recovery_codes",
      targetId: a.sellerUserId,
      before: null,
      after: { recoveryCodes: codeHashes.length },
    });
    return true;
  });
}

async function writeRecoveryCodes(tx: Tx, sellerUserId: string, codeHashes: string[]): Promise<void> {
  await tx.sellerRecoveryCode.deleteMany({ where: { sellerUserId } });
  await tx.sellerRecoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ id: newId("rcv"), sellerUserId, codeHash })) });
}

/** Turn it off: the secret and the recovery codes are deleted, with the audit row. False when it was not on. */
export async function turnOffTwoStep(a: Actor): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const off = await tx.sellerTwoStep.deleteMany({ where: { sellerUserId: a.sellerUserId, enabledAt: { not: null } } });
    if (off.count !== 1) return false;
    await tx.sellerRecoveryCode.deleteMany({ where: { sellerUserId: a.sellerUserId } });
    await recordAudit(tx, twoStepAudit(a, "account.two_step_disable", true, false));
    return true;
  });
}

function twoStepAudit(a: Actor, action: "account.two_step_enable" | "account.two_step_disable", before: boolean, after: boolean) {
  return { sellerId: a.sellerId, actorId: a.sellerUserId, action, targetId: a.sellerUserId, before: { twoStep: before }, after: { twoStep: after } };
}
