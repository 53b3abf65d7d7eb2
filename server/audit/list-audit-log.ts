// The console's audit log: every audited change with who, when, before and after, filterable, newest first, paged.
// Read-only: nothing in the console edits or deletes an audit row.
import { microsToUsd } from "../lib/money";
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { AUDIT_ACTIONS, isAuditAction } from "./actions";
import { findAuditActors, findAuditLogs, type AuditCursor, type AuditFilter } from "./audit.queries";

export const AUDIT_PAGE_SIZE = 50;

function decodeCursor(s: string): AuditCursor {
  const { at, id } = decodePageCursor(s);
  return { createdAt: at, id };
}

type Json = unknown;

/** A value as the log shows it: micro-USD amounts (keys ending in Micros) as USD, objects as compact JSON. */
function show(key: string, v: Json): string {
  if (v === null || v === undefined) return "—";
  if (/Micros$/.test(key) && typeof v === "string" && /^-?\d+$/.test(v)) return `$${microsToUsd(BigInt(v))}`;
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

/** The fields a change touched, side by side: every key of before and after whose value differs (all keys on add or remove). */
export function diffAudit(before: Json, after: Json): { field: string; before: string; after: string }[] {
  const b = before && typeof before === "object" && !Array.isArray(before) ? (before as Record<string, Json>) : {};
  const a = after && typeof after === "object" && !Array.isArray(after) ? (after as Record<string, Json>) : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => before === null || after === null || JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => ({ field: k, before: before === null ? "—" : show(k, b[k]), after: after === null ? "—" : show(k, a[k]) }));
}

export type AuditLogInput = {
  cursor?: string | null;
  actions?: string[];
  targetType?: string;
  targetId?: string;
  actorId?: string;
  /** UTC days, inclusive: YYYY-MM-DD. */
  from?: string;
  to?: string;
  limit?: number;
};

export async function listAuditLog(sellerId: string, input: AuditLogInput = {}) {
  const limit = input.limit ?? AUDIT_PAGE_SIZE;
  const filter: AuditFilter = {
    actions: input.actions?.filter(isAuditAction),
    targetType: input.targetType,
    targetId: input.targetId,
    actorId: input.actorId,
    from: input.from ? new Date(`${input.from}T00:00:00.000Z`) : undefined,
    to: input.to ? new Date(Date.parse(`${input.to}T00:00:00.000Z`) + 86_400_000) : undefined,
  };
  const rows = await findAuditLogs(sellerId, filter, { cursor: input.cursor ? decodeCursor(input.cursor) : null, take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    entries: page.map((r) => ({
      id: r.id,
      action: r.action,
      label: isAuditAction(r.action) ? AUDIT_ACTIONS[r.action].label : r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      actor: r.actor?.email ?? null,
      before: r.before,
      after: r.after,
      changes: diffAudit(r.before, r.after),
      at: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodePageCursor(last.createdAt, last.id) : null,
  };
}

/** The filter menus: every action (with its label) and the seller's users. */
export async function getAuditFilterOptions(sellerId: string) {
  return {
    actions: Object.entries(AUDIT_ACTIONS).map(([action, a]) => ({ action, label: a.label, target: a.target })),
    actors: await findAuditActors(sellerId),
  };
}
