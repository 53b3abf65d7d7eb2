// The only file of agent identity (with human-sign-in.queries.ts and the signing keys) that touches Prisma.
// State changes are guarded by the state they leave (`where: { id, status: ... }`): two racers cannot both
// complete one claim, confirm one attempt or rotate one refresh token.
import { db, type Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { recordAudit } from "../audit/audit.queries";
import { newId } from "../lib/ids";

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

const credentialSelect = {
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

// ---------- credentials ----------

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

// ---------- ID-JAG registration ----------

export type AssertedRegistration =
  | { type: "replay" }
  | { type: "claimed"; credential: CredentialRow; human: { id: string; email: string } }
  | { type: "interaction_required"; credential: CredentialRow };

/**
 * One transaction: burn the jti (a second use is a replay), then either create a claimed credential for the
 * human this provider identity maps to (or a new human), or, when the email already belongs to an account this
 * provider identity is not linked to, a pending credential whose claim the human must confirm.
 */
export async function registerAssertedCredential(input: {
  sellerId: string;
  issuer: string;
  subject: string;
  email: string;
  jti: string;
  jtiExpiresAt: Date;
  credentialId: string;
  refresh: NewRefreshToken;
  pending: { claimTokenHash: string; expiresAt: Date; attempt: NewAttempt };
}): Promise<AssertedRegistration> {
  return db.$transaction(async (tx: Tx) => {
    const burned = await tx.usedAssertionJti.createMany({
      data: [{ issuer: input.issuer, jti: input.jti, expiresAt: input.jtiExpiresAt }],
      skipDuplicates: true,
    });
    if (burned.count === 0) return { type: "replay" } as const;

    const link = await tx.humanIssuerLink.findUnique({
      where: { issuer_subject: { issuer: input.issuer, subject: input.subject } },
      select: { human: { select: { id: true, email: true } } },
    });
    let human = link?.human ?? null;
    if (!human) {
      const existing = await tx.human.findUnique({ where: { email: input.email }, select: { id: true } });
      if (existing) {
        const credential = await createPendingCredential(
          {
            id: input.credentialId,
            sellerId: input.sellerId,
            kind: "identity_assertion",
            loginHint: input.email,
            pendingIssuer: input.issuer,
            pendingSubject: input.subject,
            ...input.pending,
          },
          tx,
        );
        return { type: "interaction_required", credential } as const;
      }
      human = await tx.human.create({ data: { id: newId("hum"), email: input.email }, select: { id: true, email: true } });
      await tx.humanIssuerLink.create({ data: { issuer: input.issuer, subject: input.subject, humanId: human.id } });
    }
    const credential = await tx.agentCredential.create({
      data: { id: input.credentialId, sellerId: input.sellerId, kind: "identity_assertion", status: "claimed", humanId: human.id, claimedAt: new Date() },
      select: credentialSelect,
    });
    await tx.refreshToken.create({ data: { ...input.refresh, credentialId: credential.id } });
    return { type: "claimed", credential, human } as const;
  });
}

// ---------- refresh ----------

export type RefreshRotation =
  { type: "rotated"; credential: CredentialRow } | { type: "unknown" } | { type: "reused" } | { type: "expired" } | { type: "revoked" };

/**
 * Spend a refresh token and mint its successor, bumping the credential's generation (older assertions stop
 * exchanging). A token that was already used is a replay: every live token of that credential is revoked too,
 * since one of the two holders is not the agent (RFC 9700 section 4.14.2).
 */
export async function rotateRefreshToken(tokenHash: string, sellerId: string, next: NewRefreshToken, now: Date): Promise<RefreshRotation> {
  return db.$transaction(async (tx: Tx) => {
    const token = await tx.refreshToken.findUnique({
      where: { tokenHash },
      select: { id: true, status: true, expiresAt: true, credentialId: true, credential: { select: { sellerId: true } } },
    });
    // Another storefront's token is unknown here (and is left untouched).
    if (!token || token.credential.sellerId !== sellerId) return { type: "unknown" } as const;
    if (token.status !== "active") {
      if (token.status === "used")
        await tx.refreshToken.updateMany({ where: { credentialId: token.credentialId, status: "active" }, data: { status: "revoked" } });
      return { type: "reused" } as const;
    }
    if (token.expiresAt <= now) return { type: "expired" } as const;
    const spent = await tx.refreshToken.updateMany({ where: { id: token.id, status: "active" }, data: { status: "used", usedAt: now } });
    if (spent.count !== 1) return { type: "reused" } as const;
    const bumped = await tx.agentCredential.updateMany({
      where: { id: token.credentialId, status: "claimed", revokedAt: null },
      data: { generation: { increment: 1 } },
    });
    if (bumped.count !== 1) return { type: "revoked" } as const;
    await tx.refreshToken.create({ data: { ...next, credentialId: token.credentialId } });
    const credential = await tx.agentCredential.findUniqueOrThrow({ where: { id: token.credentialId }, select: credentialSelect });
    return { type: "rotated", credential } as const;
  });
}

// ---------- claim attempts ----------

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

// ---------- trusted ID-JAG providers ----------

export type TrustedProviderRow = { id: string; sellerId: string; issuer: string; jwksUri: string | null; jwks: unknown; enabled: boolean };

export async function findTrustedProvider(sellerId: string, issuer: string): Promise<TrustedProviderRow | null> {
  return db.trustedIdentityProvider.findUnique({ where: { sellerId_issuer: { sellerId, issuer } } });
}

export async function listTrustedProviders(sellerId: string): Promise<TrustedProviderRow[]> {
  return db.trustedIdentityProvider.findMany({ where: { sellerId }, orderBy: { createdAt: "asc" } });
}

export async function upsertTrustedProvider(input: {
  sellerId: string;
  issuer: string;
  jwksUri: string | null;
  jwks: object | null;
  enabled: boolean;
}): Promise<TrustedProviderRow> {
  const data = { jwksUri: input.jwksUri, jwks: input.jwks ?? Prisma.DbNull, enabled: input.enabled };
  return db.trustedIdentityProvider.upsert({
    where: { sellerId_issuer: { sellerId: input.sellerId, issuer: input.issuer } },
    create: { id: newId("tip"), sellerId: input.sellerId, issuer: input.issuer, ...data },
    update: data,
  });
}

export async function deleteTrustedProvider(sellerId: string, id: string): Promise<boolean> {
  const res = await db.trustedIdentityProvider.deleteMany({ where: { id, sellerId } });
  return res.count === 1;
}

// ---------- console: trusted providers with their audit rows ----------

export type TrustedProviderListRow = TrustedProviderRow & { createdAt: Date };

/** What an audit row says about a provider; the domain decides (no key material beyond kid/kty). */
export type ProviderAuditDescriber = (row: TrustedProviderRow) => Prisma.InputJsonValue;
type ProviderAudit = { actorId: string | null; describe: ProviderAuditDescriber };

export async function listTrustedProvidersWithTimes(sellerId: string): Promise<TrustedProviderListRow[]> {
  return db.trustedIdentityProvider.findMany({ where: { sellerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The storefront's hosts (read-only in the console): each is an origin, and so an issuer, of the same storefront. */
export async function listSellerHosts(sellerId: string): Promise<{ hostname: string; createdAt: Date }[]> {
  return db.sellerHost.findMany({ where: { sellerId }, select: { hostname: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { hostname: "asc" }] });
}

async function writeProviderAudit(
  tx: Tx,
  sellerId: string,
  action: "identity_provider.add" | "identity_provider.update" | "identity_provider.remove",
  targetId: string,
  audit: ProviderAudit,
  before: TrustedProviderRow | null,
  after: TrustedProviderRow | null,
) {
  await recordAudit(tx, {
    sellerId,
    actorId: audit.actorId,
    action,
    targetId,
    before: before ? audit.describe(before) : null,
    after: after ? audit.describe(after) : null,
  });
}

/**
 * Lock one of the seller's providers for the rest of the transaction (SELECT ... FOR UPDATE) and read it, so
 * the audit row's "before" is the state the change replaced even when two console sessions race.
 * Another seller's id matches nothing.
 */
async function lockProvider(tx: Tx, sellerId: string, id: string): Promise<TrustedProviderListRow | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM trusted_identity_providers WHERE id = ${id} AND seller_id = ${sellerId} FOR UPDATE`;
  if (locked.length !== 1) return null;
  return tx.trustedIdentityProvider.findUnique({ where: { id } });
}

/** Console add, one transaction: the provider (create only: an issuer the seller already trusts is "exists") and its audit row. */
export async function createTrustedProviderAudited(
  input: { id: string; sellerId: string; issuer: string; jwksUri: string | null; jwks: object | null; enabled: boolean },
  audit: ProviderAudit,
): Promise<{ type: "created"; provider: TrustedProviderListRow } | { type: "exists" }> {
  return db.$transaction(async (tx: Tx) => {
    // ON CONFLICT DO NOTHING on (seller_id, issuer): two racing adds of one issuer create one row, one audit row.
    const created = await tx.trustedIdentityProvider.createMany({
      data: [
        { id: input.id, sellerId: input.sellerId, issuer: input.issuer, jwksUri: input.jwksUri, jwks: input.jwks ?? Prisma.DbNull, enabled: input.enabled },
      ],
      skipDuplicates: true,
    });
    if (created.count !== 1) return { type: "exists" } as const;
    const provider = await tx.trustedIdentityProvider.findUniqueOrThrow({ where: { id: input.id } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.add", provider.id, audit, null, provider);
    return { type: "created", provider } as const;
  });
}

/** Console enable/disable, one transaction. Setting the state it already has changes nothing and writes no audit row. */
export async function setTrustedProviderEnabledAudited(
  input: { sellerId: string; id: string; enabled: boolean },
  audit: ProviderAudit,
): Promise<{ type: "updated" | "unchanged"; provider: TrustedProviderListRow } | { type: "not_found" }> {
  return db.$transaction(async (tx: Tx) => {
    const before = await lockProvider(tx, input.sellerId, input.id);
    if (!before) return { type: "not_found" } as const;
    if (before.enabled === input.enabled) return { type: "unchanged", provider: before } as const;
    const provider = await tx.trustedIdentityProvider.update({ where: { id: input.id }, data: { enabled: input.enabled } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.update", provider.id, audit, before, provider);
    return { type: "updated", provider } as const;
  });
}

/** Console remove, one transaction: the row goes, the audit row keeps what it was (without private key material). */
export async function deleteTrustedProviderAudited(
  input: { sellerId: string; id: string },
  audit: ProviderAudit,
): Promise<{ type: "removed"; provider: TrustedProviderRow } | { type: "not_found" }> {
  return db.$transaction(async (tx: Tx) => {
    const before = await lockProvider(tx, input.sellerId, input.id);
    if (!before) return { type: "not_found" } as const;
    await tx.trustedIdentityProvider.delete({ where: { id: input.id } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.remove", before.id, audit, before, null);
    return { type: "removed", provider: before } as const;
  });
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
