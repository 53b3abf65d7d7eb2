// Agent credentials and the humans who claim them: creation, look-ups, the console's list. With the other
// *.queries.ts files of this folder, the only code of agent identity that touches Prisma. State changes are guarded
// by the state they leave (`where: { id, status: ... }`), so two racers cannot both move one row.
import { db, type Tx } from "../db/client";

export type CredentialRow = {
  id: string;
  sellerId: string;
  kind: string;
  status: string;
  loginHint: string | null;
  humanId: string | null;
  generation: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  claimedAt: Date | null;
  pendingIssuer: string | null;
  pendingSubject: string | null;
  createdAt: Date;
};

export const credentialSelect = {
  id: true,
  sellerId: true,
  kind: true,
  status: true,
  loginHint: true,
  humanId: true,
  generation: true,
  expiresAt: true,
  revokedAt: true,
  claimedAt: true,
  pendingIssuer: true,
  pendingSubject: true,
  createdAt: true,
} as const;

export type NewRefreshToken = { id: string; tokenHash: string; expiresAt: Date };
export type NewAttempt = { id: string; linkTokenHash: string; loginHint: string | null; expiresAt: Date };

export async function createUnclaimedCredential(input: { id: string; sellerId: string; claimTokenHash: string; expiresAt: Date }): Promise<CredentialRow> {
  return db.agentCredential.create({
    data: { id: input.id, sellerId: input.sellerId, kind: "anonymous", status: "unclaimed", claimTokenHash: input.claimTokenHash, expiresAt: input.expiresAt },
    select: credentialSelect,
  });
}

/** A service_auth registration: the credential (no assertion yet) and its first claim attempt, together. */
export async function createPendingCredential(
  input: {
    id: string;
    sellerId: string;
    kind: "service_auth" | "identity_assertion";
    loginHint: string;
    claimTokenHash: string;
    expiresAt: Date;
    attempt: NewAttempt;
    pendingIssuer?: string;
    pendingSubject?: string;
  },
  tx?: Tx,
): Promise<CredentialRow> {
  const run = async (t: Tx) => {
    const cred = await t.agentCredential.create({
      data: {
        id: input.id,
        sellerId: input.sellerId,
        kind: input.kind,
        status: "pending_claim",
        loginHint: input.loginHint,
        claimTokenHash: input.claimTokenHash,
        expiresAt: input.expiresAt,
        pendingIssuer: input.pendingIssuer,
        pendingSubject: input.pendingSubject,
      },
      select: credentialSelect,
    });
    await t.claimAttempt.create({ data: { ...input.attempt, credentialId: cred.id } });
    return cred;
  };
  return tx ? run(tx) : db.$transaction(run);
}

export async function findCredentialById(id: string): Promise<CredentialRow | null> {
  return db.agentCredential.findUnique({ where: { id }, select: credentialSelect });
}

export async function findCredentialByClaimHash(claimTokenHash: string): Promise<CredentialRow | null> {
  return db.agentCredential.findUnique({ where: { claimTokenHash }, select: credentialSelect });
}

/** Every credential the same human claimed at this seller (entitlements are shared across them). */
export async function findCredentialsOfHuman(humanId: string, sellerId: string) {
  return db.agentCredential.findMany({
    where: { humanId, sellerId, status: "claimed", revokedAt: null },
    select: { id: true, kind: true, claimedAt: true },
    orderBy: { createdAt: "asc" },
  });
}

export async function findHumanById(id: string) {
  return db.human.findUnique({ where: { id }, select: { id: true, email: true } });
}

/** The console's Customers page: a seller's agent credentials, newest first, `take` after the cursor (never token hashes). */
export async function findSellerCredentials(sellerId: string, q: { cursor: { createdAt: Date; id: string } | null; take: number }) {
  return db.agentCredential.findMany({
    where: {
      sellerId,
      ...(q.cursor ? { OR: [{ createdAt: { lt: q.cursor.createdAt } }, { createdAt: q.cursor.createdAt, id: { lt: q.cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.take,
    select: { id: true, kind: true, status: true, createdAt: true, claimedAt: true, expiresAt: true, revokedAt: true, human: { select: { email: true } } },
  });
}
