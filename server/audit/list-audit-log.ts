// The console's audit log: every audited change with who, when, before and after, filterable, newest first, paged.
// Read-only: nothing in the console edits or deletes an audit row.
import { formatUsd, microsToUsd, parseUsd } from "../lib/money";
import { railWords, stateWordsOf } from "../contracts/payment-words";
import { chainName } from "../chain/explorer-links";
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { AUDIT_ACTIONS, AUDIT_TARGETS, isAuditAction } from "./actions";
import { findAuditActors, findAuditLogs, findAuditTargetNames, type AuditCursor, type AuditFilter } from "./audit.queries";

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

/** What the log calls each field a change touched (the rows keep the code's names). */
const FIELD_LABELS: Record<string, string> = {
  meter: "Meter",
  amountMicros: "Price",
  transferredMicros: "Sent back",
  title: "Title",
  includedUnits: "Free included units",
  slug: "Slug",
  name: "Name",
  description: "Description",
  status: "State",
  minimumMicros: "Minimum purchase",
  maximumMicros: "Maximum purchase",
  cardMinimumMicros: "Card minimum",
  creditValidityDays: "Credit lasts (days)",
  meters: "Meters covered",
  explorerTxUrls: "Transaction links",
  ethUsdMicros: "ETH/USD rate",
  issuer: "Issuer",
  enabled: "Enabled",
  jwksUri: "Key set URL",
  jwks: "Inline keys",
  transaction: "Transaction",
  logIndex: "Log index",
  rail: "Rail",
  refund: "Refund",
  reason: "Reason",
  contactEmail: "Contact email",
  termsText: "Terms",
  refundPolicy: "Refund policy",
  refundedMicros: "Refunded in total",
  url: "URL",
  eventTypes: "Events",
  email: "Email",
  role: "Role",
  thresholdUsd: "Credit alert below",
  previousSecretValidUntil: "Previous secret valid until",
  unsettledCapMicros: "Answers before settlement, per payer wallet",
  sellerUnsettledCapMicros: "Answers before settlement, all wallets",
  creditLeaseCalls: "Calls per lease",
  creditLeaseMs: "Seconds per lease",
  payToAddress: "Payout wallet",
};

/** The lease bounds in words: null is the deployment's default, 0 calls no leases (server/settings/update-credit-lease.ts). */
function leaseWords(key: string, v: Json): string | null {
  if (key !== "creditLeaseCalls" && key !== "creditLeaseMs") return null;
  if (v === null || v === undefined) return "the default";
  if (typeof v !== "number") return null;
  if (key === "creditLeaseMs") return `${v / 1000} s`;
  return v === 0 ? "0 (no leases)" : `${v} ${v === 1 ? "call" : "calls"}`;
}

/** A field the table above does not name yet, in words rather than code: "someNewField" -> "Some new field". */
function fieldWords(field: string): string {
  const words = field
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The stored states and roles the log shows in words, by the kind of thing and field (the raw value stays on hover). */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  "plan.status": { live: "Live", retired: "Retired" },
  "webhook_endpoint.status": { enabled: "Enabled", disabled: "Disabled" },
  "seller_user.role": { owner: "Owner", viewer: "Viewer" },
  "seller_invite.role": { owner: "Owner", viewer: "Viewer" },
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A stored word in the seller's words: a payment's state, a plan's or endpoint's state, a role, a time; else as it is. */
function wordsFor(targetType: string, key: string, v: string): string {
  if (targetType === "payment" && key === "status") return stateWordsOf(v)?.label ?? v;
  if (key === "rail") return railWords(v);
  const words = VALUE_WORDS[`${targetType}.${key}`]?.[v];
  if (words) return words;
  if (ISO_TIME.test(v)) return `${v.slice(0, 10)} ${v.slice(11, 19)} UTC`;
  if (/Usd$/.test(key) && parseUsd(v) !== null) return formatUsd(parseUsd(v)!);
  return v === "" ? "(empty)" : v;
}

/** A value for people: micro-USD as dollars ($0.05), lists joined, link formats by chain name, yes/no for flags, states in words. */
function showHuman(targetType: string, key: string, v: Json): string {
  const lease = leaseWords(key, v);
  if (lease !== null) return lease;
  if (v === null || v === undefined) return "—";
  if (/Micros$/.test(key) && typeof v === "string" && /^-?\d+$/.test(v)) return formatUsd(BigInt(v));
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v))
    return v.length ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(", ") : key === "eventTypes" ? "all events" : "none";
  if (key === "explorerTxUrls" && typeof v === "object") {
    const entries = Object.entries(v as Record<string, string>);
    return entries.length ? entries.map(([net, f]) => `${chainName(net)}: ${f || "no link"}`).join("; ") : "defaults";
  }
  if (key === "jwks" && typeof v === "object") return `${((v as { keys?: unknown[] }).keys ?? []).length} key(s)`;
  if (typeof v === "string") return wordsFor(targetType, key, v);
  return JSON.stringify(v);
}

export type AuditField = { field: string; label: string; before: string; after: string; /** How the UI shows the values. */ format: "text" | "payment_state" };

/** The fields a change touched, for people: labelled, values formatted (diffAudit keeps the raw values). */
export function describeAuditChanges(targetType: string, before: Json, after: Json): AuditField[] {
  const b = before && typeof before === "object" && !Array.isArray(before) ? (before as Record<string, Json>) : {};
  const a = after && typeof after === "object" && !Array.isArray(after) ? (after as Record<string, Json>) : {};
  return diffAudit(before, after).map(({ field }) => ({
    field,
    label: (targetType === "payment" && field === "amountMicros" ? "Amount" : FIELD_LABELS[field]) ?? fieldWords(field),
    before: before === null ? "—" : showHuman(targetType, field, b[field]),
    after: after === null ? "—" : showHuman(targetType, field, a[field]),
    format: targetType === "payment" && field === "status" ? "payment_state" : "text",
  }));
}

/** What a change was made to, in words: the plan's or meter's name, a provider's issuer, the payment id. */
function targetName(r: { targetType: string; targetId: string; before: Json; after: Json }, names: Map<string, string>): string {
  const snap = { ...((r.before ?? {}) as Record<string, Json>), ...((r.after ?? {}) as Record<string, Json>) };
  const str = (v: Json) => (typeof v === "string" && v ? v : null);
  switch (r.targetType) {
    case "price":
    case "meter":
      return names.get(r.targetId) ?? str(snap.meter) ?? r.targetId;
    case "plan":
      return names.get(r.targetId) ?? str(snap.name) ?? r.targetId;
    case "trusted_identity_provider":
      return str(snap.issuer) ?? r.targetId;
    case "seller_settings":
      return "Storefront settings";
    case "webhook_endpoint":
      return str(snap.url) ?? r.targetId;
    case "seller_invite":
      return str(snap.email) ?? r.targetId;
    case "seller_user":
      return names.get(r.targetId) ?? r.targetId;
    default:
      return r.targetId;
  }
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
  const names = await findAuditTargetNames(
    sellerId,
    page.map((r) => ({ type: r.targetType, id: r.targetId })),
  );
  return {
    entries: page.map((r) => ({
      id: r.id,
      action: r.action,
      label: isAuditAction(r.action) ? AUDIT_ACTIONS[r.action].label : r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      targetName: targetName(r, names),
      actor: r.actor?.email ?? null,
      before: r.before,
      after: r.after,
      changes: diffAudit(r.before, r.after),
      fields: describeAuditChanges(r.targetType, r.before, r.after),
      at: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodePageCursor(last.createdAt, last.id) : null,
  };
}

/** The filter menus: every action (with its label) and the seller's users. */
export async function getAuditFilterOptions(sellerId: string) {
  return {
    actions: Object.entries(AUDIT_ACTIONS).map(([action, a]) => ({ action, label: a.label, target: a.target, targetLabel: AUDIT_TARGETS[a.target] })),
    actors: await findAuditActors(sellerId),
  };
}
