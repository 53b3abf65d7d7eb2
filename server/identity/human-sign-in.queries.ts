// Prisma access for the human sign-in (email codes, humans) and the demo outbox.
import { db, type Tx } from "../db/client";
import { newId } from "../lib/ids";

export async function countRecentSignInCodes(email: string, since: Date): Promise<number> {
  return db.humanSignInCode.count({ where: { email, createdAt: { gt: since } } });
}

export async function createSignInCode(input: { email: string; codeHash: string; expiresAt: Date }): Promise<void> {
  await db.humanSignInCode.create({ data: { id: newId("hsc"), ...input } });
}

export async function findNewestSignInCode(email: string) {
  return db.humanSignInCode.findFirst({
    where: { email },
    orderBy: { createdAt: "desc" },
    select: { id: true, codeHash: true, failed: true, expiresAt: true, usedAt: true },
  });
}

export async function recordSignInCodeFailure(id: string): Promise<void> {
  await db.humanSignInCode.update({ where: { id }, data: { failed: { increment: 1 } } });
}

/** Spend a code (guarded: unused, under the failure limit) and find or create the human, together. */
export async function spendSignInCode(input: {
  id: string;
  email: string;
  maxFailures: number;
  now: Date;
}): Promise<{ id: string; email: string; sessionVersion: number } | null> {
  return db.$transaction(async (tx: Tx) => {
    const spent = await tx.humanSignInCode.updateMany({
      where: { id: input.id, usedAt: null, failed: { lt: input.maxFailures }, expiresAt: { gt: input.now } },
      data: { usedAt: input.now },
    });
    if (spent.count !== 1) return null;
    return tx.human.upsert({
      where: { email: input.email },
      create: { id: newId("hum"), email: input.email, lastLoginAt: input.now },
      update: { lastLoginAt: input.now },
      select: { id: true, email: true, sessionVersion: true },
    });
  });
}

export async function createOutboxMessage(input: { to: string; subject: string; text: string }): Promise<void> {
  await db.outboxMessage.create({ data: { id: newId("msg"), ...input } });
}

export async function findOutboxMessages(take = 50) {
  return db.outboxMessage.findMany({ orderBy: { createdAt: "desc" }, take });
}
