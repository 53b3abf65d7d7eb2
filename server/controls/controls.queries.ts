// The only file of the credential controls that touches the database: what the paid path checks of a credential (one
// indexed read, cached per instance by credential-controls.ts), the channel that says when to forget it, and the
// person's freeze, unfreeze and revoke, each one statement guarded by who owns the credential and what state it is in.
import { db, listen, sql, type ListenState, type Tx } from "../db/client";

/** What the paid path needs to know of a credential, read in one statement. */
export type CredentialControlsRow = {
  credentialId: string;
  sellerId: string;
  humanId: string | null;
  revoked: boolean;
  frozen: boolean;
  /** The lower of the person's thresholds that apply (this credential's own, and the one for all), or null. */
  thresholdMicros: bigint | null;
  /** The person whose budgets and account count its calls: set while it is claimed and not revoked. */
  budgetPerson: string | null;
  /** Whether a budget of that person applies to it (its own, or the one for all of theirs): else no budget statement runs. */
  budgeted: boolean;
};

export async function findCredentialControls(credentialId: string): Promise<CredentialControlsRow | null> {
  const { rows } = await sql<Omit<CredentialControlsRow, "thresholdMicros"> & { thresholdMicros: string | null }>(
    `select c.id as "credentialId", c.seller_id as "sellerId", c.human_id as "humanId", c.revoked_at is not null as revoked,
            exists (select 1 from credential_freezes f where f.credential_id = c.id) as frozen,
            (select min(t.threshold_micros) from approval_thresholds t
              where t.seller_id = c.seller_id and t.human_id = c.human_id and t.scope in (c.id, '*')) as "thresholdMicros",
            p.person as "budgetPerson",
            p.person is not null and exists (select 1 from budgets b where b.seller_id = c.seller_id
              and ((b.scope = 'credential' and b.subject = c.id) or (b.scope = 'person' and b.subject = p.person))) as budgeted
     from agent_credentials c
     cross join lateral (select case when c.status = 'claimed' and c.revoked_at is null then c.human_id end as person) p
     where c.id = $1`,
    [credentialId],
    "controls_credential",
  );
  const r = rows[0];
  return r ? { ...r, thresholdMicros: r.thresholdMicros === null ? null : BigInt(r.thresholdMicros) } : null;
}

/** Every change of a credential's controls, a person's thresholds or a seller's wallet caps (`c:`, `h:`, `w:` + id). */
export function listenForControlChanges(onChange: (payload: string) => void, onState: (s: ListenState) => void): () => void {
  return listen("human_controls_changed", onChange, onState);
}

/** A credential this person claimed at this seller, as their controls list it. */
export type PersonCredentialRow = {
  id: string;
  kind: string;
  claimedAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  frozenAt: Date | null;
};

export async function findPersonCredentials(humanId: string, sellerId: string): Promise<PersonCredentialRow[]> {
  const rows = await db.agentCredential.findMany({
    where: { humanId, sellerId, status: "claimed" },
    select: { id: true, kind: true, claimedAt: true, createdAt: true, revokedAt: true, freeze: { select: { frozenAt: true } } },
    orderBy: [{ claimedAt: "desc" }, { id: "asc" }],
  });
  return rows.map(({ freeze, ...r }) => ({ ...r, frozenAt: freeze?.frozenAt ?? null }));
}

/** The credential's owner check every control shares: claimed by this person at this seller, not revoked. */
const owned = (humanId: string, sellerId: string, credentialId: string) => ({ id: credentialId, humanId, sellerId, status: "claimed", revokedAt: null });

/** Freeze: true when frozen now or already (idempotent), false when the credential is not this person's live one. */
export async function insertFreeze(humanId: string, sellerId: string, credentialId: string): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const mine = await tx.agentCredential.count({ where: owned(humanId, sellerId, credentialId) });
    if (mine !== 1) return false;
    await tx.credentialFreeze.createMany({ data: [{ credentialId, sellerId, humanId }], skipDuplicates: true });
    return true;
  });
}

/** Unfreeze: true when it is not frozen any more (also when it was not), false when it is not this person's live credential. */
export async function deleteFreeze(humanId: string, sellerId: string, credentialId: string): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const mine = await tx.agentCredential.count({ where: owned(humanId, sellerId, credentialId) });
    if (mine !== 1) return false;
    await tx.credentialFreeze.deleteMany({ where: { credentialId } });
    return true;
  });
}

/**
 * Revoke for good, in one transaction: the credential (guarded: still live), every live refresh token of it, and the
 * event's `via` (storefront.revoked_via, read by its trigger). `humanId` null: the agent revoking through RFC 7009.
 */
export async function revokeCredentialRow(input: { credentialId: string; sellerId: string; humanId: string | null; via: "person" | "token_revocation" }) {
  return db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`select set_config('storefront.revoked_via', ${input.via}, true)`;
    const where = {
      id: input.credentialId,
      sellerId: input.sellerId,
      revokedAt: null,
      ...(input.humanId ? { humanId: input.humanId, status: "claimed" } : {}),
    };
    const moved = await tx.agentCredential.updateMany({ where, data: { revokedAt: new Date() } });
    if (moved.count !== 1) return false;
    await tx.refreshToken.updateMany({ where: { credentialId: input.credentialId, status: "active" }, data: { status: "revoked" } });
    return true;
  });
}

/** The refresh token's credential at this seller (any state: revoking an already spent or revoked token answers the same). */
export async function findRefreshTokenCredential(tokenHash: string, sellerId: string): Promise<string | null> {
  const row = await db.refreshToken.findUnique({ where: { tokenHash }, select: { credentialId: true, credential: { select: { sellerId: true } } } });
  return row && row.credential.sellerId === sellerId ? row.credentialId : null;
}
