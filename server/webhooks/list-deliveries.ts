// The console's view of an endpoint's deliveries: newest first, keyset-paged, each with its state, attempts and what the
// endpoint last answered (status, latency, the first KiB of the body); one delivery with its payload and every attempt;
// and resending one (one more attempt, now).
import { recordAudit } from "../audit/audit.queries";
import { AppError } from "../errors";
import { storefrontOrigin } from "../events/event-origin";
import { renderEvent } from "../events/render-event";
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { findDeliveries, findDelivery, findEndpoint, reopenDelivery, withTransaction } from "./webhooks.queries";

const PAGE = 25;

export async function listWebhookDeliveries(a: { sellerId: string; endpointId: string; status?: "pending" | "succeeded" | "failed"; cursor?: string | null }) {
  if (!(await findEndpoint(a.sellerId, a.endpointId))) throw new AppError("not_found", { detail: "no such webhook endpoint" });
  const cursor = a.cursor ? decodePageCursor(a.cursor) : null;
  const rows = await findDeliveries(a.sellerId, a.endpointId, { status: a.status, cursor: cursor && { createdAt: cursor.at, id: cursor.id }, take: PAGE + 1 });
  const page = rows.slice(0, PAGE);
  const last = page[page.length - 1];
  return {
    deliveries: page.map((d) => ({
      id: d.id,
      eventId: d.eventId,
      eventType: d.event.type,
      status: d.status as "pending" | "succeeded" | "failed",
      attempts: d.attempts,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
      lastStatus: d.lastStatus,
      lastLatencyMs: d.lastLatencyMs,
      lastResponse: d.lastResponse,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    })),
    nextCursor: rows.length > PAGE && last ? encodePageCursor(last.createdAt, last.id) : null,
  };
}

export async function getWebhookDelivery(a: { sellerId: string; id: string }) {
  const d = await findDelivery(a.sellerId, a.id);
  if (!d) throw new AppError("not_found", { detail: "no such webhook delivery" });
  const payload = renderEvent(d.event, await storefrontOrigin(a.sellerId));
  return {
    id: d.id,
    endpointId: d.endpointId,
    status: d.status as "pending" | "succeeded" | "failed",
    attempts: d.attempts,
    payload: JSON.stringify(payload, null, 2),
    attemptLog: d.attemptLog.map((x) => ({
      at: x.createdAt.toISOString(),
      instance: x.instance,
      status: x.status,
      latencyMs: x.latencyMs,
      response: x.response,
      error: x.error,
    })),
  };
}

export async function resendWebhookDelivery(a: { sellerId: string; actorId: string | null; id: string }) {
  const result = await reopenDelivery(a.sellerId, a.id);
  if (result === "not_found") throw new AppError("not_found", { detail: "no such webhook delivery" });
  if (result === "endpoint_disabled")
    throw new AppError("invalid_request", { reason: "endpoint_disabled", detail: "the endpoint is disabled: enable it first, then resend" });
  if (result === "in_flight") throw new AppError("invalid_request", { reason: "delivery_in_flight", detail: "this delivery is being sent right now" });
  await withTransaction((tx) =>
    recordAudit(tx, { sellerId: a.sellerId, actorId: a.actorId, action: "webhook_delivery.resend", targetId: a.id, before: null, after: null }),
  );
  return { id: a.id, status: "pending" as const };
}
