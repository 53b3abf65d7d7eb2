// Claim attempts (the link a human opens, the user code the agent types back) and the claim itself.
import { db, type Tx } from "../db/client";
import { credentialSelect, type CredentialRow, type NewAttempt, type NewRefreshToken } from "./credentials.queries";

export type AttemptRow = {
  id: string;
  credentialId: string;
  loginHint: string | null;
  status: string;
  humanId: string | null;
  userCodeHash: string | null;
  userCodeExpiresAt: Date | null;
  failedCodes: number;
  expiresAt: Date;
  createdAt: Date;
};

const attemptSelect = {
  id: true,
  credentialId: true,
  loginHint: true,
  status: true,
  humanId: true,
  userCodeHash: true,
  userCodeExpiresAt: true,
  failedCodes: true,
  expiresAt: true,
  createdAt: true,
} as const;

export async function countLiveAttempts(credentialId: string, now: Date): Promise<number> {
  return db.claimAttempt.count({ where: { credentialId, status: { in: ["pending", "confirmed"] }, expiresAt: { gt: now } } });
}

export async function createAttempt(credentialId: string, attempt: NewAttempt): Promise<void> {
  await db.claimAttempt.create({ data: { ...attempt, credentialId } });
}

export async function findRecentAttempts(credentialId: string, take = 10): Promise<AttemptRow[]> {
  return db.claimAttempt.findMany({ where: { credentialId }, orderBy: { createdAt: "desc" }, take, select: attemptSelect });
}

/** The attempt behind a claim link, with what the human page shows about the credential and the seller. */
export async function findAttemptByLinkHash(linkTokenHash: string) {
  return db.claimAttempt.findUnique({
    where: { linkTokenHash },
    select: {
      ...attemptSelect,
      credential: { select: { id: true, kind: true, status: true, expiresAt: true, createdAt: true, seller: { select: { id: true, name: true } } } },
    },
  });
}

/**
 * The human confirms: pending (or already confirmed by the same human, to show a fresh code) -> confirmed,
 * while the link is live. Returns false when the guard matched nothing.
 */
export async function confirmAttempt(input: { id: string; humanId: string; userCodeHash: string; userCodeExpiresAt: Date; now: Date }): Promise<boolean> {
  const res = await db.claimAttempt.updateMany({
    where: {
      id: input.id,
      expiresAt: { gt: input.now },
      OR: [{ status: "pending" }, { status: "confirmed", humanId: input.humanId }],
    },
    data: {
      status: "confirmed",
      humanId: input.humanId,
      userCodeHash: input.userCodeHash,
      userCodeExpiresAt: input.userCodeExpiresAt,
      confirmedAt: input.now,
      failedCodes: 0,
    },
  });
  return res.count === 1;
}

export async function denyAttempt(input: { id: string; humanId: string; now: Date }): Promise<boolean> {
  const res = await db.claimAttempt.updateMany({
    where: { id: input.id, status: { in: ["pending", "confirmed"] }, expiresAt: { gt: input.now } },
    data: { status: "denied", humanId: input.humanId },
  });
  return res.count === 1;
}

export type CodeSubmission =
  | { type: "completed"; credential: CredentialRow; human: { id: string; email: string } }
  /** A wrong code, counted; `locked` when it was the last one the attempt takes. */
  | { type: "wrong_code"; locked: boolean }
  /** No code was compared: the attempt is no longer waiting for one (locked, completed, denied...). */
  | { type: "not_confirmed"; status: string; expiresAt: Date }
  | { type: "code_expired" }
  /** The right code, but the credential was claimed meanwhile (through another attempt). */
  | { type: "already_claimed" };

/**
 * The agent types back a user code: judged under the attempt's row lock (SELECT ... FOR UPDATE), so the codes sent for
 * one attempt are compared one at a time, each against the attempt as the previous one left it. A wrong code is counted
 * and locks the attempt at `maxFailures`; once locked (or completed), no further code is compared, however many were
 * sent at once. The right code claims the credential in the same transaction: the credential becomes claimed by the
 * human (guarded: not claimed yet), the attempt completed, a first refresh token, and the provider link of an
 * interaction_required ID-JAG registration. `matches` compares the code with the stored hash (no I/O).
 */
export async function submitUserCode(input: {
  attemptId: string;
  credentialId: string;
  matches: (userCodeHash: string) => boolean;
  maxFailures: number;
  refresh: NewRefreshToken;
  now: Date;
}): Promise<CodeSubmission> {
  return db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<
      { status: string; human_id: string | null; user_code_hash: string | null; user_code_expires_at: Date | null; failed_codes: number; expires_at: Date }[]
    >`SELECT status, human_id, user_code_hash, user_code_expires_at, failed_codes, expires_at FROM claim_attempts WHERE id = ${input.attemptId} FOR UPDATE`;
    if (!row) return { type: "not_confirmed", status: "missing", expiresAt: input.now } as const;
    if (row.status !== "confirmed") return { type: "not_confirmed", status: row.status, expiresAt: row.expires_at } as const;
    if (!row.user_code_hash || !row.human_id || !row.user_code_expires_at || row.user_code_expires_at <= input.now) return { type: "code_expired" } as const;
    if (!input.matches(row.user_code_hash)) {
      const locked = row.failed_codes + 1 >= input.maxFailures;
      await tx.claimAttempt.update({
        where: { id: input.attemptId },
        data: { failedCodes: { increment: 1 }, ...(locked ? { status: "locked" } : {}) },
      });
      return { type: "wrong_code", locked } as const;
    }
    const claimed = await tx.agentCredential.updateMany({
      where: { id: input.credentialId, status: { in: ["unclaimed", "pending_claim"] }, revokedAt: null },
      data: { status: "claimed", humanId: row.human_id, claimedAt: input.now, expiresAt: null, generation: { increment: 1 } },
    });
    if (claimed.count !== 1) return { type: "already_claimed" } as const;
    // The row lock held since the SELECT: the attempt is still confirmed.
    await tx.claimAttempt.update({ where: { id: input.attemptId }, data: { status: "completed", completedAt: input.now } });
    await tx.refreshToken.create({ data: { ...input.refresh, credentialId: input.credentialId } });
    const credential = await tx.agentCredential.findUniqueOrThrow({ where: { id: input.credentialId }, select: credentialSelect });
    if (credential.pendingIssuer && credential.pendingSubject) {
      await tx.humanIssuerLink.createMany({
        data: [{ issuer: credential.pendingIssuer, subject: credential.pendingSubject, humanId: row.human_id }],
        skipDuplicates: true,
      });
    }
    const human = await tx.human.findUniqueOrThrow({ where: { id: row.human_id }, select: { id: true, email: true } });
    return { type: "completed", credential, human } as const;
  });
}
