// Webhook delivery against receivers on loopback: one that verifies Standard Webhooks signatures with the official
// library, one that fails, one that hangs. Deliveries are made with their events (by the database), sent at least
// once, retried on the schedule until it runs out, bounded by the timeout, signed with both secrets during a rotation;
// an endpoint failing for too long is disabled and its seller told (an event to its other endpoints, an email).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifyAlerts } from "../alerts/notify-alerts";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { insertEvent } from "../events/events.queries";
import { renderEvent } from "../events/render-event";
import { storefrontOrigin } from "../events/event-origin";
import { listOutbox } from "../identity/send-mail";
import { createGatewaySeller } from "../testing/gateway";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver";
import { deliverDueWebhooks } from "./deliver-webhooks";
import { resendWebhookDelivery } from "./list-deliveries";
import { createWebhookEndpoint, rotateWebhookSecret, updateWebhookEndpoint } from "./manage-endpoints";

const TIMEOUT_MS = 400;
let sellerId: string;
let actorId: string;
let good: WebhookReceiver;
let failing: WebhookReceiver;
let hanging: WebhookReceiver;

beforeAll(async () => {
  Object.assign(process.env, {
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    // Three retries, 50 ms apart: the schedule runs out within the test.
    WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.05,0.05,0.05",
  });
  resetEnvForTests();
  ({ sellerId } = await createGatewaySeller("http://127.0.0.1:9"));
  actorId = (await db.sellerUser.findFirstOrThrow({ where: { sellerId } })).id;
  [good, failing, hanging] = await Promise.all([startWebhookReceiver(), startWebhookReceiver(), startWebhookReceiver()]);
  failing.state.mode = "fail";
  hanging.state.mode = "hang";
});

afterAll(async () => {
  await Promise.all([good?.stop(), failing?.stop(), hanging?.stop()]);
});

// Each test starts with no live endpoint and fresh receivers: the seller's earlier endpoints take no more events.
beforeEach(async () => {
  await db.webhookEndpoint.updateMany({ where: { sellerId }, data: { status: "disabled" } });
  await db.webhookDelivery.updateMany({ where: { sellerId, status: "pending" }, data: { status: "failed" } });
  for (const r of [good, failing, hanging]) r.state.received = [];
  good.state.mode = "ok";
  failing.state.mode = "fail";
});

async function endpoint(receiver: WebhookReceiver, eventTypes: string[] = []) {
  const { endpoint, secret } = await createWebhookEndpoint({ sellerId, actorId, input: { url: receiver.url, eventTypes } });
  receiver.state.secrets = [secret];
  return { id: endpoint.id, secret };
}

const emit = (type = "operation.upstream_failing", object: unknown = { operation: "aggregates" }) =>
  insertEvent({ sellerId, type, subjectId: "aggregates", data: { object } });

/** Run worker passes until nothing is due or `ms` passed. */
async function drain(ms = 3_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const pass = await deliverDueWebhooks(50, sellerId);
    if (
      !pass.claimed &&
      !(await db.webhookDelivery.count({ where: { sellerId, status: "pending", claimedUntil: null, nextAttemptAt: { lte: new Date(Date.now() + 200) } } }))
    )
      return;
    if (!pass.claimed) await new Promise((r) => setTimeout(r, 40));
  }
}

const deliveriesOf = (endpointId: string) => db.webhookDelivery.findMany({ where: { endpointId }, include: { attemptLog: { orderBy: { id: "asc" } } } });

describe("webhook delivery", () => {
  it("signs each delivery per Standard Webhooks (the library verifies it) and sends the event as the API renders it, once", async () => {
    const e = await endpoint(good);
    const eventId = await emit();
    // A real change too: a price update's event, made by the database in the update's transaction.
    const price = await db.price.findFirstOrThrow({ where: { sellerId, meter: { key: "aggregates" } } });
    await db.price.update({ where: { id: price.id }, data: { amountMicros: price.amountMicros + 1n } });
    await drain();
    const got = good.state.received.filter((r) => r.verified);
    expect(good.state.received.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => JSON.parse(r.body).type).sort()).toEqual(["operation.upstream_failing", "price.updated"]);
    const row = await db.event.findUniqueOrThrow({ where: { id: eventId } });
    const sent = got.find((r) => r.id === eventId)!;
    expect(JSON.parse(sent.body)).toEqual(renderEvent(row, await storefrontOrigin(sellerId)));
    expect(Math.abs(Number(sent.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const priced = JSON.parse(got.find((r) => r.id !== eventId)!.body);
    expect(priced.data).toMatchObject({
      object: { key: "aggregates", priceMicros: String(price.amountMicros + 1n) },
      previous: { priceUsd: expect.any(String) },
    });
    const rows = await deliveriesOf(e.id);
    expect(rows.map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
    expect(rows[0]!.attemptLog).toMatchObject([{ status: 200, response: '{"ok":true}', error: null }]);
    expect(rows[0]!.lastLatencyMs).toBeGreaterThanOrEqual(0);
    // Delivered once: nothing left due, nothing sent again.
    await deliverDueWebhooks(50, sellerId);
    expect(good.state.received).toHaveLength(2);
  });

  it("sends an endpoint only the event types it asked for", async () => {
    await endpoint(good, ["operation.upstream_recovered"]);
    await emit("operation.upstream_failing");
    await emit("operation.upstream_recovered");
    await drain();
    expect(good.events().map((e) => e.type)).toEqual(["operation.upstream_recovered"]);
  });

  it("retries a failing receiver with growing waits until the schedule runs out, then gives up", async () => {
    const e = await endpoint(failing);
    await emit();
    await drain(5_000);
    const [d] = await deliveriesOf(e.id);
    expect(d).toMatchObject({ status: "failed", attempts: 4, lastStatus: 500, lastResponse: "receiver is down", lastError: "HTTP 500" });
    expect(d!.attemptLog.map((a) => a.status)).toEqual([500, 500, 500, 500]);
    expect(failing.state.received).toHaveLength(4);
    // Each retry waited for its turn (50 ms, within 10%).
    const at = failing.state.received.map((r) => r.at);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(40);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } })).failingSince).not.toBeNull();
  });

  it("gives a hanging receiver WEBHOOK_TIMEOUT_MS per attempt, never more, and retries it", async () => {
    const e = await endpoint(hanging);
    await emit();
    const t0 = Date.now();
    const pass = await deliverDueWebhooks(50, sellerId);
    expect(pass).toMatchObject({ claimed: 1, failed: 1 });
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1_500);
    const [d] = await deliveriesOf(e.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatus: null, lastError: `no answer within ${TIMEOUT_MS} ms` });
    expect(d!.attemptLog[0]!.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  });

  it("an endpoint removed while its attempt runs: the attempt ends quietly, nothing is left", async () => {
    const e = await endpoint(hanging);
    await emit();
    const running = deliverDueWebhooks(50, sellerId);
    await new Promise((r) => setTimeout(r, 100));
    await db.webhookEndpoint.delete({ where: { id: e.id } });
    expect(await running).toMatchObject({ claimed: 1, failed: 1 });
    expect(await db.webhookDelivery.count({ where: { endpointId: e.id } })).toBe(0);
  });

  it("signs with the new and the previous secret after a rotation, so a receiver still on the old one verifies", async () => {
    const r = await startWebhookReceiver();
    try {
      const e = await endpoint(r);
      const old = e.secret;
      const { secret: fresh } = await rotateWebhookSecret({ sellerId, actorId, id: e.id });
      expect(fresh).not.toBe(old);
      await emit();
      await drain();
      const [sent] = r.state.received;
      expect(sent!.signature.split(" ")).toHaveLength(2);
      r.state.secrets = [old];
      expect(r.state.received.every((x) => x.verified)).toBe(true);
      // The receiver checks with whichever it holds: both verify this body.
      const { Webhook } = await import("standardwebhooks");
      const headers = { "webhook-id": sent!.id, "webhook-timestamp": sent!.timestamp, "webhook-signature": sent!.signature };
      expect(() => new Webhook(old).verify(sent!.body, headers)).not.toThrow();
      expect(() => new Webhook(fresh).verify(sent!.body, headers)).not.toThrow();
      expect(() => new Webhook("whsec_" + Buffer.alloc(32, 7).toString("base64")).verify(sent!.body, headers)).toThrow();
    } finally {
      await r.stop();
    }
  });

  it("resends a failed delivery once, on request", async () => {
    const e = await endpoint(failing);
    await emit();
    await drain(5_000);
    const [d] = await deliveriesOf(e.id);
    expect(d!.status).toBe("failed");
    failing.state.mode = "ok";
    failing.state.received = [];
    await resendWebhookDelivery({ sellerId, actorId, id: d!.id });
    await drain();
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: d!.id } })).toMatchObject({ status: "succeeded", attempts: 5, lastStatus: 200 });
    expect(failing.state.received).toHaveLength(1);
  });
});

describe("an endpoint failing for too long", () => {
  it("is disabled, its pending deliveries failed, and the seller told: an event to its other endpoints and an email", async () => {
    const watcher = await endpoint(good, ["webhook_endpoint.disabled"]);
    const e = await endpoint(failing);
    await emit();
    await emit();
    // It has failed every attempt for longer than WEBHOOK_DISABLE_AFTER_HOURS (five days by default).
    await db.webhookEndpoint.update({ where: { id: e.id }, data: { failingSince: new Date(Date.now() - 6 * 86_400_000) } });
    await drain();
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } });
    expect(row).toMatchObject({ status: "disabled", disabledReason: expect.stringMatching(/^every attempt failed since/) });
    expect((await deliveriesOf(e.id)).map((d) => d.status)).toEqual(["failed", "failed"]);
    const told = good.events();
    expect(told.map((x) => x.type)).toEqual(["webhook_endpoint.disabled"]);
    expect(told[0]!.data.object).toMatchObject({ id: e.id, url: failing.url, status: "disabled" });
    expect(watcher.id).not.toBe(e.id);
    await notifyAlerts();
    const mail = (await listOutbox()).find((m) => m.text.includes(failing.url));
    expect(mail).toMatchObject({ to: expect.stringContaining("@test.test"), subject: expect.stringContaining("Webhook endpoint disabled") });
    // Enabled again by the seller: it starts afresh, and the alert is resolved.
    await updateWebhookEndpoint({ sellerId, actorId, change: { id: e.id, enabled: true } });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } })).toMatchObject({ status: "enabled", failingSince: null, disabledReason: null });
    expect(await db.alert.findFirstOrThrow({ where: { subject: e.id } })).toMatchObject({ status: "resolved" });
  });
});
