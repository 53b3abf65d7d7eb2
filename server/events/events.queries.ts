// The events table: written only through the database's emit_event() (which also fans each event out to the seller's
// webhook endpoints), read by the console and by the webhook workers, pruned by retention.
import { db, sql, type Tx } from "../db/client";

export type NewEvent = { sellerId: string; type: string; subjectId: string | null; data: unknown };

/** Append one event in the caller's transaction (or on its own). Returns its id. */
export async function insertEvent(e: NewEvent, tx?: Tx): Promise<string> {
  const params = [e.sellerId, e.type, e.subjectId, JSON.stringify(e.data)];
  const text = "select emit_event($1, $2, $3, $4::jsonb) as id";
  if (tx) return (await tx.$queryRawUnsafe<{ id: string }[]>(text, ...params))[0]!.id;
  return (await sql<{ id: string }>(text, params)).rows[0]!.id;
}

/** A seller's events, newest first (keyset on seq: the (seller_id, seq desc) index). */
export async function findEvents(sellerId: string, opts: { beforeSeq?: bigint; take: number; type?: string }) {
  return db.event.findMany({
    where: { sellerId, ...(opts.beforeSeq != null ? { seq: { lt: opts.beforeSeq } } : {}), ...(opts.type ? { type: opts.type } : {}) },
    orderBy: { seq: "desc" },
    take: opts.take,
    select: { id: true, seq: true, type: true, subjectId: true, createdAt: true, data: true },
  });
}

/** Hosts a seller answers on, oldest first: the first names the storefront in links when PUBLIC_URL is unset. */
export async function findSellerHosts(sellerId: string): Promise<string[]> {
  const rows = await db.sellerHost.findMany({ where: { sellerId }, orderBy: [{ createdAt: "asc" }, { hostname: "asc" }], select: { hostname: true } });
  return rows.map((r) => r.hostname);
}

/**
 * Retention: delete, per seller, up to `limit` of its oldest events created before `before` (their deliveries and
 * attempts go with them), walking each seller's (seller_id, seq) index from its oldest end: no index on created_at is
 * kept just for this (every paid call would pay for it). Returns how many went.
 */
export async function deleteEventsBefore(before: Date, limit: number): Promise<number> {
  const { rowCount } = await sql(
    `delete from events where id in (
       select e.id from sellers s
       cross join lateral (select id, created_at from events where seller_id = s.id order by seq limit $2) e
       where e.created_at < $1::timestamptz at time zone 'UTC'
     )`,
    [before.toISOString(), limit],
  );
  return rowCount;
}

/** The seller's credit plans with their credit.low threshold (null: none set). */
export async function findCreditThresholds(sellerId: string) {
  const { rows } = await sql<{ id: string; slug: string; name: string; status: string; low_micros: string | null }>(
    `select p.id, p.slug, p.name, p.status, t.low_micros::text as low_micros
     from plans p left join plan_credit_thresholds t on t.plan_id = p.id
     where p.seller_id = $1 and p.kind = 'credit' order by p.sort_order, p.created_at`,
    [sellerId],
  );
  return rows.map((r) => ({ planId: r.id, slug: r.slug, name: r.name, status: r.status, lowMicros: r.low_micros == null ? null : BigInt(r.low_micros) }));
}

/** Set (or with null, clear) a credit plan's threshold; false when the plan is not one of the seller's credit plans. */
export async function writeCreditThreshold(tx: Tx, sellerId: string, planId: string, lowMicros: bigint | null): Promise<{ before: bigint | null } | null> {
  const plan = await tx.plan.findFirst({ where: { id: planId, sellerId, kind: "credit" }, select: { id: true } });
  if (!plan) return null;
  const before = await tx.planCreditThreshold.findUnique({ where: { planId }, select: { lowMicros: true } });
  if (lowMicros == null) await tx.planCreditThreshold.deleteMany({ where: { planId } });
  else
    await tx.planCreditThreshold.upsert({
      where: { planId },
      create: { planId, sellerId, lowMicros, updatedAt: new Date() },
      update: { lowMicros, updatedAt: new Date() },
    });
  return { before: before?.lowMicros ?? null };
}

export function withTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(fn);
}
