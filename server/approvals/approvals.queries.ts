// The only file of approvals that touches the database. Every state move is one statement guarded by the state it
// leaves (`where status = 'pending'`), so a person's two clicks, or two retries of the agent, cannot both move one row.
import { db, sql } from "../db/client";

export type ApprovalKey = { credentialId: string; binding: string; amountMicros: bigint };

export type ApprovalRow = {
  id: string;
  sellerId: string;
  humanId: string;
  /** The person's email (where the approval was sent). */
  email: string;
  credentialId: string;
  amountMicros: bigint;
  thresholdMicros: bigint;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  status: "pending" | "approved" | "declined" | "expired" | "used";
  expiresAt: Date;
  decidedAt: Date | null;
  createdAt: Date;
};

const COLUMNS = `id, seller_id as "sellerId", human_id as "humanId", credential_id as "credentialId", amount_micros as "amountMicros",
  threshold_micros as "thresholdMicros", method, path, query, operation_key as "operationKey", status,
  (select h.email from humans h where h.id = approvals.human_id) as email, expires_at at time zone 'UTC' as "expiresAt", decided_at at time zone 'UTC' as "decidedAt", created_at at time zone 'UTC' as "createdAt"`;

type RawRow = Omit<ApprovalRow, "amountMicros" | "thresholdMicros"> & { amountMicros: string; thresholdMicros: string };
const toRow = (r: RawRow): ApprovalRow => ({ ...r, amountMicros: BigInt(r.amountMicros), thresholdMicros: BigInt(r.thresholdMicros) });
const NOW = `(now() at time zone 'UTC')`;

/**
 * The agent's retry: spend the newest approved, unexpired approval of this request, once (the conditional UPDATE),
 * remembering the proof that spent it (its replays are served, not held: findSpentByProof).
 */
export async function consumeApproved(k: ApprovalKey, proofHash: string | null): Promise<string | null> {
  const { rows } = await sql<{ id: string }>(
    `update approvals set status = 'used', used_at = ${NOW}, proof_hash = $4
     where id = (select id from approvals where credential_id = $1 and binding = $2 and amount_micros = $3 and status = 'approved'
                 and expires_at > ${NOW} order by created_at desc limit 1)
       and status = 'approved'
     returning id`,
    [k.credentialId, k.binding, k.amountMicros.toString(), proofHash],
  );
  return rows[0]?.id ?? null;
}

/** The approval this very proof spent for this request, if any: the proof is then a replay of a call its person approved. */
export async function findSpentByProof(k: ApprovalKey, proofHash: string): Promise<ApprovalRow | null> {
  const { rows } = await sql<RawRow>(
    `select ${COLUMNS} from approvals
     where credential_id = $1 and binding = $2 and amount_micros = $3 and status = 'used' and proof_hash = $4
     order by created_at desc limit 1`,
    [k.credentialId, k.binding, k.amountMicros.toString(), proofHash],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** A consumed approval whose call was not charged after all (released, refused): usable again, until it expires. */
export async function restoreApproved(id: string): Promise<void> {
  await sql(`update approvals set status = 'approved', used_at = null, proof_hash = null where id = $1 and status = 'used'`, [id]);
}

export async function findLatestApproval(k: ApprovalKey): Promise<ApprovalRow | null> {
  const { rows } = await sql<RawRow>(
    `select ${COLUMNS} from approvals where credential_id = $1 and binding = $2 and amount_micros = $3 order by created_at desc limit 1`,
    [k.credentialId, k.binding, k.amountMicros.toString()],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** A pending approval past its time is expired (declined by nobody); its place for a new pending one is free. */
export async function expireApproval(id: string): Promise<void> {
  await sql(`update approvals set status = 'expired', decided_at = expires_at where id = $1 and status = 'pending' and expires_at <= ${NOW}`, [id]);
}

export type NewApproval = Omit<ApprovalRow, "status" | "decidedAt" | "createdAt" | "email"> & { binding: string };

/** Insert the pending approval, or nothing if another held call made it first (one pending per request and amount). */
export async function insertPendingApproval(a: NewApproval): Promise<{ id: string; email: string } | null> {
  const { rows } = await sql<{ id: string; email: string }>(
    `insert into approvals (id, seller_id, human_id, credential_id, binding, amount_micros, threshold_micros, method, path, query, operation_key, status, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12::timestamptz at time zone 'UTC')
     on conflict do nothing
     returning id, (select email from humans where id = $3) as email`,
    [
      a.id,
      a.sellerId,
      a.humanId,
      a.credentialId,
      a.binding,
      a.amountMicros.toString(),
      a.thresholdMicros.toString(),
      a.method,
      a.path,
      a.query,
      a.operationKey,
      a.expiresAt.toISOString(),
    ],
  );
  return rows[0] ?? null;
}

/** The person's decision on their own pending, unexpired approval; approving opens its use window. Null: not moved. */
export async function decideApproval(input: { id: string; humanId: string; approve: boolean; useUntil: Date }): Promise<ApprovalRow | null> {
  const { rows } = await sql<RawRow>(
    `update approvals set status = $3, decided_at = ${NOW}, expires_at = case when $3 = 'approved' then $4::timestamptz at time zone 'UTC' else expires_at end
     where id = $1 and human_id = $2 and status = 'pending' and expires_at > ${NOW}
     returning ${COLUMNS}`,
    [input.id, input.humanId, input.approve ? "approved" : "declined", input.useUntil.toISOString()],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

export async function findApproval(id: string): Promise<ApprovalRow | null> {
  const { rows } = await sql<RawRow>(`select ${COLUMNS} from approvals where id = $1`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

export async function findPersonApprovals(humanId: string, sellerId: string, limit: number): Promise<ApprovalRow[]> {
  const { rows } = await sql<RawRow>(`select ${COLUMNS} from approvals where human_id = $1 and seller_id = $2 order by created_at desc limit $3`, [
    humanId,
    sellerId,
    limit,
  ]);
  return rows.map(toRow);
}

/** A person's thresholds at a storefront: `*` (all their credentials) and per credential. */
export async function findThresholds(humanId: string, sellerId: string) {
  return db.approvalThreshold.findMany({ where: { humanId, sellerId }, select: { scope: true, credentialId: true, thresholdMicros: true } });
}

/** Set (or, with null, remove) a threshold; a credential's only if it is this person's claimed one here. False: not theirs. */
export async function writeThreshold(input: {
  id: string;
  humanId: string;
  sellerId: string;
  credentialId: string | null;
  micros: bigint | null;
}): Promise<boolean> {
  const scope = input.credentialId ?? "*";
  if (input.credentialId) {
    const mine = await db.agentCredential.count({ where: { id: input.credentialId, humanId: input.humanId, sellerId: input.sellerId, status: "claimed" } });
    if (mine !== 1) return false;
  }
  const where = { sellerId_humanId_scope: { sellerId: input.sellerId, humanId: input.humanId, scope } };
  if (input.micros === null) await db.approvalThreshold.deleteMany({ where: { sellerId: input.sellerId, humanId: input.humanId, scope } });
  else
    await db.approvalThreshold.upsert({
      where,
      create: { id: input.id, sellerId: input.sellerId, humanId: input.humanId, credentialId: input.credentialId, scope, thresholdMicros: input.micros },
      update: { thresholdMicros: input.micros, updatedAt: new Date() },
    });
  return true;
}
