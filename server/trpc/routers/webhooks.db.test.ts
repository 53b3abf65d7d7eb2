// The console's Webhooks page procedures: the secret is shown once and never again (not in lists, not in audit rows, not
// in the table), URLs and event types are checked, deliveries page newest first with their payload and attempts, a
// resend is one more attempt, credit thresholds are per plan. (Seller isolation: console.db.test.ts.)
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { resetEnvForTests } from "../../env";
import { insertEvent } from "../../events/events.queries";
import { createGatewaySeller } from "../../testing/gateway";
import { createCaller, sessionFor } from "../../testing/trpc";

let caller: ReturnType<typeof createCaller>;
let sellerId: string;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "0";
  resetEnvForTests();
  ({ sellerId } = await createGatewaySeller("http://127.0.0.1:9"));
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId } });
  caller = createCaller(sessionFor(user.id, sellerId));
});

describe("webhooks.* (console)", () => {
  it("shows the signing secret once: in the create and rotate answers, never in lists, audit rows or the table", async () => {
    const { endpoint, secret } = await caller.webhooks.createEndpoint({
      url: "https://hooks.example.com/in",
      eventTypes: ["payment.settled", "payment.settled", "credit.low"],
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url: "https://hooks.example.com/in", event_types: ["credit.low", "payment.settled"], status: "enabled" });
    const rotated = await caller.webhooks.rotateSecret({ id: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.endpoint.previous_secret_expires_at).not.toBeNull();
    const seen = JSON.stringify([
      await caller.webhooks.endpoints(),
      await caller.audit.list({ targetType: "webhook_endpoint" }),
      await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
    ]);
    for (const s of [secret, rotated.secret, secret.slice(6), rotated.secret.slice(6)]) expect(seen).not.toContain(s);
    expect((await caller.audit.list({ targetType: "webhook_endpoint" })).entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(["webhook_endpoint.create", "webhook_endpoint.rotate_secret"]),
    );
  });

  it("refuses URLs that are not https public hosts, and unknown event types", async () => {
    for (const url of ["http://hooks.example.com/", "https://127.0.0.1/", "https://169.254.169.254/latest/meta-data", "https://localhost:3000/"])
      await expect(caller.webhooks.createEndpoint({ url }), url).rejects.toMatchObject({
        code: "BAD_REQUEST",
        cause: { code: "invalid_request", reason: "invalid_webhook_url" },
      });
    await expect(caller.webhooks.createEndpoint({ url: "https://hooks.example.com/", eventTypes: ["payment.made_up"] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const { endpoint } = await caller.webhooks.createEndpoint({ url: "https://hooks.example.com/2" });
    await expect(caller.webhooks.updateEndpoint({ id: endpoint.id, url: "https://10.0.0.1/" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("pages an endpoint's deliveries newest first, each with its payload and attempts; resends one", async () => {
    const { endpoint } = await caller.webhooks.createEndpoint({ url: "https://hooks.example.com/paged", eventTypes: ["operation.upstream_failing"] });
    // Each a millisecond apart at least: "newest first" among deliveries written in the same millisecond is by id.
    for (let i = 0; i < 27; i++) {
      await insertEvent({ sellerId, type: "operation.upstream_failing", subjectId: `op${i}`, data: { object: { operation: `op${i}` } } });
      await new Promise((r) => setTimeout(r, 2));
    }
    const first = await caller.webhooks.deliveries({ endpointId: endpoint.id });
    expect(first.deliveries).toHaveLength(25);
    const second = await caller.webhooks.deliveries({ endpointId: endpoint.id, cursor: first.nextCursor });
    expect(second.deliveries).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const all = [...first.deliveries, ...second.deliveries];
    expect(new Set(all.map((d) => d.id)).size).toBe(27);
    expect(all.every((d) => d.status === "pending" && d.eventType === "operation.upstream_failing")).toBe(true);

    const last = all[all.length - 1]!;
    const detail = await caller.webhooks.delivery({ id: last.id });
    expect(JSON.parse(detail.payload)).toMatchObject({ id: last.eventId, type: "operation.upstream_failing", data: { object: { operation: "op0" } } });
    // A delivery still being retried is tried now and keeps its schedule; one given up on gets exactly one more attempt.
    await caller.webhooks.resend({ id: last.id });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: last.id } })).toMatchObject({ status: "pending", maxAttempts: null });
    await db.webhookDelivery.update({ where: { id: last.id }, data: { status: "failed", attempts: 10 } });
    await caller.webhooks.resend({ id: last.id });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: last.id } })).toMatchObject({ status: "pending", maxAttempts: 11 });
    expect((await caller.webhooks.deliveries({ endpointId: endpoint.id, status: "failed" })).deliveries).toEqual([]);

    await caller.webhooks.updateEndpoint({ id: endpoint.id, enabled: false });
    await expect(caller.webhooks.resend({ id: last.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "invalid_request", reason: "endpoint_disabled" },
    });
    await caller.webhooks.deleteEndpoint({ id: endpoint.id });
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });

  it("sets and clears a credit plan's credit-low threshold, with an audit row", async () => {
    const plans = await caller.webhooks.creditThresholds();
    const plan = plans.find((p) => p.slug === "research-credits")!;
    expect(plan.thresholdUsd).toBeNull();
    await expect(caller.webhooks.setCreditThreshold({ planId: plan.planId, thresholdUsd: "-1" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.webhooks.setCreditThreshold({ planId: plan.planId, thresholdUsd: "2.5" })).toEqual({ planId: plan.planId, thresholdUsd: "2.500000" });
    expect((await caller.webhooks.creditThresholds()).find((p) => p.planId === plan.planId)!.thresholdUsd).toBe("2.500000");
    await caller.webhooks.setCreditThreshold({ planId: plan.planId, thresholdUsd: null });
    expect((await caller.webhooks.creditThresholds()).find((p) => p.planId === plan.planId)!.thresholdUsd).toBeNull();
    const audit = await caller.audit.list({ targetType: "plan", targetId: plan.planId });
    expect(audit.entries.map((e) => e.action)).toEqual(["plan.credit_threshold", "plan.credit_threshold"]);
  });

  it("keeps a seller to a few endpoints: each is written with every event, in the change's transaction", async () => {
    const { sellerId: other } = await createGatewaySeller("http://127.0.0.1:9");
    const c = createCaller(sessionFor((await db.sellerUser.findFirstOrThrow({ where: { sellerId: other } })).id, other));
    for (let i = 0; i < 10; i++) await c.webhooks.createEndpoint({ url: `https://hooks.example.com/${i}` });
    await expect(c.webhooks.createEndpoint({ url: "https://hooks.example.com/11" })).rejects.toMatchObject({ cause: { reason: "too_many_endpoints" } });
  });

  it("lists every event type with what it means", async () => {
    const types = await caller.webhooks.eventTypes();
    expect(types.map((t) => t.type)).toEqual(
      expect.arrayContaining(["payment.settled", "plan.purchased", "credit.low", "claim.completed", "webhook_endpoint.disabled"]),
    );
    expect(types.every((t) => t.about.length > 10)).toBe(true);
  });
});
