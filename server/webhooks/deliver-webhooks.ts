// One pass of a webhook worker: claim the due deliveries (leased: no other instance sends them meanwhile), send each
// (signed per Standard Webhooks with the endpoint's secret, and the previous one during a rotation), record what the
// endpoint answered, and schedule a retry or give up. A 2xx is delivered; anything else (3xx, 4xx, 5xx, a timeout, a
// refused connection) is retried on the schedule. An endpoint that has failed every attempt for WEBHOOK_DISABLE_AFTER_HOURS
// is disabled, its pending deliveries failed, and its seller told (an alert emailed and a webhook_endpoint.disabled event).
import { randomUUID } from "node:crypto";
import { openAlert } from "../alerts/alerts.queries";
import { env } from "../env";
import { insertEvent } from "../events/events.queries";
import { storefrontOrigin } from "../events/event-origin";
import { renderEvent } from "../events/render-event";
import { INSTANCE, logger } from "../observability/logger";
import { metrics } from "../observability/metrics";
import { openSecret } from "./endpoint-secret";
import { postWebhook, type AttemptResult } from "./post-webhook";
import { nextRetryDelay, parseRetrySchedule } from "./retry-schedule";
import { webhookHeaders } from "./sign-webhook";
import { claimDueDeliveries, disableFailingEndpoint, recordAttempt, type ClaimedDelivery, type EndpointRow } from "./webhooks.queries";

export type DeliveryPass = { claimed: number; succeeded: number; failed: number; gaveUp: number; disabled: number };

export function endpointView(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    status: e.status as "enabled" | "disabled",
    failing_since: e.failingSince?.toISOString() ?? null,
    disabled_at: e.disabledAt?.toISOString() ?? null,
    disabled_reason: e.disabledReason,
  };
}

function answerClass(r: AttemptResult): string {
  if (r.type === "failed") return r.timeout ? "timeout" : "error";
  return `${Math.floor(r.status / 100)}xx`;
}

/** Sign and send one delivery. What goes wrong before anything is sent (a secret that will not open) is a failed attempt. */
async function attempt(d: ClaimedDelivery): Promise<AttemptResult> {
  const e = env();
  const now = new Date();
  try {
    const secrets = [openSecret(d.secretEnc)];
    if (d.previousSecretEnc && d.previousSecretExpiresAt && d.previousSecretExpiresAt > now) secrets.push(openSecret(d.previousSecretEnc));
    const event = renderEvent({ id: d.eventId, type: d.eventType, createdAt: d.eventCreatedAt, data: d.eventData }, await storefrontOrigin(d.sellerId));
    const body = JSON.stringify(event);
    return await postWebhook(d.url, {
      headers: webhookHeaders(d.eventId, now, body, secrets),
      body,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    });
  } catch (err) {
    logger().error({ err, delivery: d.id, event: d.eventId }, "webhook delivery could not be prepared");
    return { type: "failed", error: `not sent: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500), timeout: false, latencyMs: 0 };
  }
}

async function sendOne(d: ClaimedDelivery, token: string, pass: DeliveryPass): Promise<void> {
  const e = env();
  const result = await attempt(d);
  const ok = result.type === "answered" && result.status >= 200 && result.status < 300;
  const m = metrics();
  m.webhookAttempts.inc({ outcome: ok ? "succeeded" : "failed", class: answerClass(result) });
  m.webhookDuration.observe(result.latencyMs / 1000);
  const delay = ok ? null : nextRetryDelay(d.attempts, d.maxAttempts, parseRetrySchedule(e.WEBHOOK_RETRY_SCHEDULE_SECONDS));
  const next = ok ? "succeeded" : delay == null ? "failed" : new Date(Date.now() + delay);
  const recorded = await recordAttempt(
    {
      deliveryId: d.id,
      token,
      instance: INSTANCE,
      status: result.type === "answered" ? result.status : null,
      latencyMs: result.latencyMs,
      response: result.type === "answered" ? result.response : null,
      error: result.type === "failed" ? result.error : ok ? null : `HTTP ${result.status}`,
    },
    next,
  );
  const line = { delivery: d.id, event: d.eventId, type: d.eventType, endpoint: d.endpointId, attempt: d.attempts, latency_ms: result.latencyMs };
  if (ok) {
    pass.succeeded++;
    logger().debug({ ...line, status: result.status }, "webhook delivered");
    return;
  }
  pass.failed++;
  if (next === "failed") {
    pass.gaveUp++;
    m.webhookGaveUp.inc();
  }
  logger().info(
    {
      ...line,
      status: result.type === "answered" ? result.status : null,
      error: result.type === "failed" ? result.error : undefined,
      next: next instanceof Date ? next.toISOString() : next,
      owned: recorded.owned,
    },
    "webhook attempt failed",
  );
  if (recorded.endpointId && recorded.failingSince) await disableIfFailingTooLong(d, recorded.endpointId, recorded.failingSince, pass);
}

async function disableIfFailingTooLong(d: ClaimedDelivery, endpointId: string, failingSince: Date, pass: DeliveryPass): Promise<void> {
  const hours = env().WEBHOOK_DISABLE_AFTER_HOURS;
  const before = new Date(Date.now() - hours * 3_600_000);
  if (failingSince >= before) return;
  const reason = `every attempt failed since ${failingSince.toISOString()} (more than ${hours} hours)`;
  const done = await disableFailingEndpoint(endpointId, before, reason, async (tx, endpoint) => {
    const view = endpointView(endpoint);
    // Sent to the seller's other endpoints (this one is disabled now), and emailed through the alert.
    await insertEvent({ sellerId: d.sellerId, type: "webhook_endpoint.disabled", subjectId: endpointId, data: { object: view } }, tx);
    await openAlert({ sellerId: d.sellerId, kind: "webhook_endpoint_disabled", subject: endpointId, details: { url: endpoint.url, reason } }, null, tx);
  });
  if (!done) return;
  pass.disabled++;
  metrics().webhookEndpointsDisabled.inc();
  metrics().webhookGaveUp.inc(done.failedDeliveries);
  logger().warn({ endpoint: endpointId, seller: d.sellerId, url: done.endpoint.url, failed_deliveries: done.failedDeliveries }, "webhook endpoint disabled");
}

/** Claim and send up to `limit` due deliveries at once (`sellerId`: only that seller's, for tests). */
export async function deliverDueWebhooks(limit = 16, sellerId: string | null = null): Promise<DeliveryPass> {
  const token = randomUUID();
  // The lease outlives the attempt's deadline by a margin: a claim is never taken over while its attempt can still run.
  const leaseSeconds = Math.ceil((env().WEBHOOK_TIMEOUT_MS * 2) / 1000) + 30;
  const claimed = await claimDueDeliveries(limit, leaseSeconds, token, sellerId);
  const pass: DeliveryPass = { claimed: claimed.length, succeeded: 0, failed: 0, gaveUp: 0, disabled: 0 };
  await Promise.all(
    claimed.map((d) =>
      sendOne(d, token, pass).catch((err: unknown) => {
        // The claim runs out and another pass tries again.
        logger().error({ err, delivery: d.id, event: d.eventId }, "webhook delivery crashed");
      }),
    ),
  );
  return pass;
}
