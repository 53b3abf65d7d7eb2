// The console's audit list: every catalog change with who, when, before and after, newest first.
import { findAuditLogs } from "./catalog.queries";

export async function listAuditLog(sellerId: string) {
  const rows = await findAuditLogs(sellerId);
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    target: `${r.targetType}:${r.targetId}`,
    actor: r.actor?.email ?? null,
    before: r.before,
    after: r.after,
    at: r.createdAt.toISOString(),
  }));
}
