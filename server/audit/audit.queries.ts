// The one audit writer, and the audit log's reads. `recordAudit` runs inside the caller's transaction, so a change
// and its audit row commit together or not at all (a failing audit write rolls the change back). Rows are never
// updated or deleted.
import { type Tx, db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { newId } from "../lib/ids";
import { AUDIT_ACTIONS, type AuditAction } from "./actions";

export type AuditEntry<A extends AuditAction = AuditAction> = {
  sellerId: string;
  /** The signed-in seller user who made the change; null for the system (none today). */
  actorId: string | null;
  action: A;
  /** The changed row's id; its type follows from the action. */
  targetId: string;
  /** The state before and after, as the change's own module describes it (no secrets, no key material). Null: none. */
  before: Prisma.InputJsonValue | null;
  after: Prisma.InputJsonValue | null;
};

export async function recordAudit(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      id: newId("aud"),
      sellerId: e.sellerId,
      actorId: e.actorId,
      action: e.action,
      targetType: AUDIT_ACTIONS[e.action].target,
      targetId: e.targetId,
      before: e.before ?? Prisma.DbNull,
      after: e.after ?? Prisma.DbNull,
    },
  });
}

/** Keyset position in the audit log: the last row of the previous page. */
export type AuditCursor = { createdAt: Date; id: string };

export type AuditFilter = {
  actions?: string[];
  targetType?: string;
  targetId?: string;
  actorId?: string;
  /** [from, to) */
  from?: Date;
  to?: Date;
};

/**
 * A seller's audit rows, newest first, filtered, `take` after `cursor`. Served by audit_logs (seller_id, created_at
 * desc); a target's rows by (seller_id, target_type, target_id).
 */
export async function findAuditLogs(sellerId: string, f: AuditFilter, page: { cursor: AuditCursor | null; take: number }) {
  const where: Prisma.AuditLogWhereInput = {
    sellerId,
    ...(f.actions?.length ? { action: { in: f.actions } } : {}),
    ...(f.targetType ? { targetType: f.targetType } : {}),
    ...(f.targetId ? { targetId: f.targetId } : {}),
    ...(f.actorId ? { actorId: f.actorId } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
    ...(page.cursor ? { OR: [{ createdAt: { lt: page.cursor.createdAt } }, { createdAt: page.cursor.createdAt, id: { lt: page.cursor.id } }] } : {}),
  };
  return db.auditLog.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.take,
    include: { actor: { select: { email: true } } },
  });
}

/** The people who changed something at this seller (the log's "who" filter). */
export async function findAuditActors(sellerId: string): Promise<{ id: string; email: string }[]> {
  return db.sellerUser.findMany({ where: { sellerId }, select: { id: true, email: true }, orderBy: { email: "asc" } });
}

/** Who recorded `action` on each of these targets (e.g. the refunds of a page of payments): target id -> actor email. */
export async function findAuditActorsOf(sellerId: string, action: string, targetIds: string[]): Promise<Map<string, string | null>> {
  if (targetIds.length === 0) return new Map();
  const rows = await db.auditLog.findMany({
    where: { sellerId, action, targetId: { in: targetIds } },
    select: { targetId: true, actor: { select: { email: true } } },
  });
  return new Map(rows.map((r) => [r.targetId, r.actor?.email ?? null]));
}

/**
 * The names the log shows for its targets instead of ids: a plan's name, a meter's title (a price row by its meter's),
 * for the targets of one page. Removed rows have no name here; the log falls back to the row's own snapshot.
 */
export async function findAuditTargetNames(sellerId: string, targets: { type: string; id: string }[]): Promise<Map<string, string>> {
  const ids = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  const [plans, meters, prices, users] = await Promise.all([
    ids("plan").length ? db.plan.findMany({ where: { sellerId, id: { in: ids("plan") } }, select: { id: true, name: true } }) : [],
    ids("meter").length ? db.meter.findMany({ where: { sellerId, id: { in: ids("meter") } }, select: { id: true, title: true } }) : [],
    ids("price").length ? db.price.findMany({ where: { sellerId, id: { in: ids("price") } }, select: { id: true, meter: { select: { title: true } } } }) : [],
    ids("seller_user").length ? db.sellerUser.findMany({ where: { sellerId, id: { in: ids("seller_user") } }, select: { id: true, email: true } }) : [],
  ]);
  return new Map([
    ...plans.map((p) => [p.id, p.name] as const),
    ...meters.map((m) => [m.id, m.title] as const),
    ...prices.map((p) => [p.id, p.meter.title] as const),
    ...users.map((u) => [u.id, u.email] as const),
  ]);
}
