// The console's webhook endpoints: list, add (the signing secret is shown once, in the answer), change (URL, event
// types, enabled), rotate the secret (the previous one keeps signing for ROTATION_OVERLAP_HOURS, so receivers can switch
// without dropping a delivery), remove. The seller id comes from the session; each change writes its audit row (never a
// secret) in the same transaction.
import { z } from "zod";
import { recordAudit } from "../audit/audit.queries";
import { EVENT_TYPES } from "../contracts/events";
import { resolveAlertsOf } from "../alerts/alerts.queries";
import { env } from "../env";
import { AppError } from "../errors";
import { newId } from "../lib/ids";
import { endpointView } from "./deliver-webhooks";
import { newEndpointSecret, sealSecret } from "./endpoint-secret";
import { checkWebhookUrl } from "./webhook-url";
import {
  countEndpoints,
  deleteEndpointRow,
  findEndpoint,
  findEndpointSecret,
  findEndpoints,
  insertEndpoint,
  updateEndpointRow,
  withTransaction,
  type EndpointRow,
} from "./webhooks.queries";

export const ROTATION_OVERLAP_HOURS = 24;
/** Every event is written once per endpoint in the change's own transaction: the fan-out stays small. */
export const MAX_ENDPOINTS = 10;

const eventTypes = z
  .array(z.enum(EVENT_TYPES as [string, ...string[]]))
  .max(EVENT_TYPES.length)
  .transform((t) => [...new Set(t)].sort())
  .meta({ description: "The event types to send; empty: all of them." });

export const endpointInput = z.object({
  url: z.string().trim().min(1).max(2048),
  description: z.string().trim().max(200).default(""),
  eventTypes: eventTypes.default([]),
});

export const endpointChange = z.object({
  id: z.string().min(1).max(64),
  url: z.string().trim().min(1).max(2048).optional(),
  description: z.string().trim().max(200).optional(),
  eventTypes: eventTypes.optional(),
  enabled: z.boolean().optional(),
});

/** What an audit row keeps of an endpoint. */
const audited = (e: EndpointRow) => ({ url: e.url, description: e.description, eventTypes: e.eventTypes, status: e.status });

function notFound(): AppError {
  return new AppError("not_found", { detail: "no such webhook endpoint" });
}

function consoleView(e: EndpointRow) {
  return { ...endpointView(e), created_at: e.createdAt.toISOString(), previous_secret_expires_at: e.previousSecretExpiresAt?.toISOString() ?? null };
}

export async function listWebhookEndpoints(sellerId: string) {
  const rows = await findEndpoints(sellerId);
  return rows.map((r) => ({
    ...consoleView(r),
    pending: r.stats?.pending ?? 0,
    failed_24h: r.stats?.failed_24h ?? 0,
    last_delivery: r.stats?.last_at ? { status: r.stats.last_status ?? "pending", at: r.stats.last_at.toISOString() } : null,
  }));
}

export async function createWebhookEndpoint(a: { sellerId: string; actorId: string | null; input: z.input<typeof endpointInput> }) {
  const input = endpointInput.parse(a.input);
  const url = checkWebhookUrl(input.url, env().WEBHOOK_ALLOW_PRIVATE_URLS);
  if ((await countEndpoints(a.sellerId)) >= MAX_ENDPOINTS)
    throw new AppError("invalid_request", { reason: "too_many_endpoints", detail: `at most ${MAX_ENDPOINTS} webhook endpoints: remove one first` });
  const secret = newEndpointSecret();
  const row = await withTransaction(async (tx) => {
    const created = await insertEndpoint(tx, {
      id: newId("whe"),
      sellerId: a.sellerId,
      url,
      description: input.description,
      eventTypes: input.eventTypes,
      secretEnc: sealSecret(secret),
    });
    await recordAudit(tx, {
      sellerId: a.sellerId,
      actorId: a.actorId,
      action: "webhook_endpoint.create",
      targetId: created.id,
      before: null,
      after: audited(created),
    });
    return created;
  });
  // The only time the secret is shown: it is stored sealed and never returned again.
  return { endpoint: consoleView(row), secret };
}

export async function updateWebhookEndpoint(a: { sellerId: string; actorId: string | null; change: z.input<typeof endpointChange> }) {
  const c = endpointChange.parse(a.change);
  const before = await findEndpoint(a.sellerId, c.id);
  if (!before) throw notFound();
  const url = c.url === undefined ? undefined : checkWebhookUrl(c.url, env().WEBHOOK_ALLOW_PRIVATE_URLS);
  // Enabling starts afresh: the failure clock and the disable reason are cleared.
  const enabling = c.enabled === true && before.status !== "enabled";
  const row = await withTransaction(async (tx) => {
    const after = await updateEndpointRow(tx, a.sellerId, c.id, {
      ...(url !== undefined ? { url } : {}),
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.eventTypes !== undefined ? { eventTypes: c.eventTypes } : {}),
      ...(c.enabled !== undefined ? { status: c.enabled ? "enabled" : "disabled" } : {}),
      ...(enabling ? { failingSince: null, disabledAt: null, disabledReason: null } : {}),
      ...(c.enabled === false && before.status === "enabled" ? { disabledAt: new Date(), disabledReason: "disabled by the seller" } : {}),
    });
    if (!after) throw notFound();
    if (enabling) await resolveAlertsOf(tx, "webhook_endpoint_disabled", c.id);
    await recordAudit(tx, {
      sellerId: a.sellerId,
      actorId: a.actorId,
      action: "webhook_endpoint.update",
      targetId: c.id,
      before: audited(before),
      after: audited(after),
    });
    return after;
  });
  return consoleView(row);
}

export async function rotateWebhookSecret(a: { sellerId: string; actorId: string | null; id: string }) {
  const secret = newEndpointSecret();
  const overlapUntil = new Date(Date.now() + ROTATION_OVERLAP_HOURS * 3_600_000);
  const row = await withTransaction(async (tx) => {
    const current = await findEndpointSecret(tx, a.sellerId, a.id);
    if (!current) throw notFound();
    const after = await updateEndpointRow(tx, a.sellerId, a.id, {
      secretEnc: sealSecret(secret),
      previousSecretEnc: current,
      previousSecretExpiresAt: overlapUntil,
    });
    if (!after) throw notFound();
    await recordAudit(tx, {
      sellerId: a.sellerId,
      actorId: a.actorId,
      action: "webhook_endpoint.rotate_secret",
      targetId: a.id,
      before: null,
      after: { previousSecretValidUntil: overlapUntil.toISOString() },
    });
    return after;
  });
  return { endpoint: consoleView(row), secret };
}

export async function deleteWebhookEndpoint(a: { sellerId: string; actorId: string | null; id: string }) {
  await withTransaction(async (tx) => {
    const gone = await deleteEndpointRow(tx, a.sellerId, a.id);
    if (!gone) throw notFound();
    await resolveAlertsOf(tx, "webhook_endpoint_disabled", a.id);
    await recordAudit(tx, { sellerId: a.sellerId, actorId: a.actorId, action: "webhook_endpoint.delete", targetId: a.id, before: audited(gone), after: null });
  });
  return { id: a.id, deleted: true as const };
}
