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

/** Count a wrong user code; the attempt locks at `max`. Returns whether it is now locked. */
export async function recordUserCodeFailure(attemptId: string, max: number): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const row = await tx.claimAttempt.update({
      where: { id: attemptId },
      data: { failedCodes: { increment: 1 } },
      select: { failedCodes: true, status: true },
    });
    if (row.failedCodes >= max && row.status === "confirmed") {
      await tx.claimAttempt.updateMany({ where: { id: attemptId, status: "confirmed" }, data: { status: "locked" } });
      return true;
    }
    return row.status === "locked";
  });
}

export type ClaimCompletion = { type: "completed"; credential: CredentialRow; human: { id: string; email: string } } | { type: "already_claimed" };

/**
 * The claim itself, one transaction: the credential becomes claimed by the human (guarded: not claimed yet),
 * the attempt completed (guarded: still confirmed), a first refresh token, and the provider link of an
 * interaction_required ID-JAG registration.
 */
export async function completeClaim(input: {
  credentialId: string;
  attemptId: string;
  humanId: string;
  refresh: NewRefreshToken;
  now: Date;
}): Promise<ClaimCompletion> {
  return db.$transaction(async (tx: Tx) => {
    const claimed = await tx.agentCredential.updateMany({
      where: { id: input.credentialId, status: { in: ["unclaimed", "pending_claim"] }, revokedAt: null },
      data: { status: "claimed", humanId: input.humanId, claimedAt: input.now, expiresAt: null, generation: { increment: 1 } },
    });
    if (claimed.count !== 1) return { type: "already_claimed" } as const;
    const done = await tx.claimAttempt.updateMany({
      where: { id: input.attemptId, status: "confirmed" },
      data: { status: "completed", completedAt: input.now },
    });
    if (done.count !== 1) throw new Error("claim attempt changed under a completing claim");
    await tx.refreshToken.create({ data: { ...input.refresh, credentialId: input.credentialId } });
    const credential = await tx.agentCredential.findUniqueOrThrow({ where: { id: input.credentialId }, select: credentialSelect });
    if (credential.pendingIssuer && credential.pendingSubject) {
      await tx.humanIssuerLink.createMany({
        data: [{ issuer: credential.pendingIssuer, subject: credential.pendingSubject, humanId: input.humanId }],
        skipDuplicates: true,
      });
    }
    const human = await tx.human.findUniqueOrThrow({ where: { id: input.humanId }, select: { id: true, email: true } });
    return { type: "completed", credential, human } as const;
  });
}
