// Alerts to the seller: a settlement pending past the threshold, an operation's upstream failing past the rate, a card
// refund the processor refused. Each opens once (with its event, in the same transaction), is emailed once, and
// resolves when its cause is gone; the checks run on one instance at a time (a lease).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { renderEvent } from "../events/render-event";
import { listOutbox } from "../identity/send-mail";
import { newId } from "../lib/ids";
import { createGatewaySeller } from "../testing/gateway";
import { claimLease } from "./alerts.queries";
import { checkAlerts } from "./check-alerts";
import { listSellerAlerts } from "./list-alerts";
import { notifyAlerts } from "./notify-alerts";

let sellerId: string;
let email: string;

beforeAll(async () => {
  Object.assign(process.env, { ALERT_SETTLEMENT_DELAY_SECONDS: "300", ALERT_UPSTREAM_FAILURE_RATE: "0.5", ALERT_UPSTREAM_MIN_CALLS: "10" });
  resetEnvForTests();
  ({ sellerId } = await createGatewaySeller("http://127.0.0.1:9"));
  email = (await db.sellerUser.findFirstOrThrow({ where: { sellerId } })).email;
});

afterAll(() => db.payment.deleteMany({ where: { sellerId } }));

async function payment(
  over: Partial<{ status: "verified" | "consumed" | "released" | "refunded"; rail: string; operationKey: string; failureReason: string; createdAt: Date }> = {},
) {
  const id = newId("pay");
  await db.payment.create({
    data: {
      id,
      sellerId,
      status: over.status ?? "verified",
      rail: over.rail ?? "x402",
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: over.operationKey ?? "aggregates",
      amountMicros: 500_000n,
      failureReason: over.failureReason ?? null,
      expiresAt: new Date(Date.now() + 60_000),
      createdAt: over.createdAt ?? new Date(),
    },
  });
  return id;
}

const eventsOf = async (type: string) =>
  (await db.event.findMany({ where: { sellerId, type }, orderBy: { seq: "asc" } })).map((e) => renderEvent(e, "https://store.test"));

describe("alerts", () => {
  it("a settlement pending past the threshold: one alert, one payment.settlement_delayed, one email; resolved once settled", async () => {
    const id = await payment();
    await db.settlement.create({
      data: { id: newId("stl"), paymentId: id, status: "pending", claimedUntil: new Date(0), createdAt: new Date(Date.now() - 10 * 60_000) },
    });
    const fresh = await payment();
    await db.settlement.create({ data: { id: newId("stl"), paymentId: fresh, status: "pending", claimedUntil: new Date(0) } });
    await checkAlerts();
    await checkAlerts();
    const evs = await eventsOf("payment.settlement_delayed");
    expect(evs.map((e) => (e.data.object as { id: string }).id)).toEqual([id]);
    expect(evs[0]!.data).toMatchObject({
      object: { id, status: "verified", rail: "x402" },
      alert: { threshold_seconds: 300, pending_since: expect.stringMatching(/Z$/) },
    });
    await notifyAlerts();
    await notifyAlerts();
    const mails = (await listOutbox()).filter((m) => m.to === email && m.text.includes(id));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Settlement delayed");
    expect(mails[0]!.text).toContain("/console/webhooks");

    await db.settlement.updateMany({ where: { paymentId: id }, data: { status: "succeeded" } });
    await db.payment.update({ where: { id }, data: { status: "consumed" } });
    await checkAlerts();
    expect(await db.alert.findFirstOrThrow({ where: { kind: "settlement_delayed", subject: id } })).toMatchObject({ status: "resolved" });
    await checkAlerts();
    expect(await db.alert.count({ where: { kind: "settlement_delayed", subject: id } })).toBe(1);
  });

  it("an operation's upstream failing past the rate: operation.upstream_failing once, then upstream_recovered", async () => {
    for (let i = 0; i < 8; i++) await payment({ status: "released", failureReason: i % 2 ? "upstream_error" : "upstream_timeout", operationKey: "basis" });
    for (let i = 0; i < 4; i++) await payment({ status: "consumed", operationKey: "basis" });
    // A failure older than the window does not count.
    await payment({ status: "released", failureReason: "upstream_error", operationKey: "basis", createdAt: new Date(Date.now() - 3_600_000) });
    await checkAlerts();
    await checkAlerts();
    const failing = await eventsOf("operation.upstream_failing");
    expect(failing).toHaveLength(1);
    expect(failing[0]!.data.object).toEqual({
      operation: "basis",
      window_seconds: 300,
      calls: 12,
      failures: 8,
      failure_rate: 0.667,
      reasons: { upstream_error: 4, upstream_timeout: 4 },
    });
    expect((await listSellerAlerts(sellerId)).find((a) => a.kind === "upstream_failing")).toMatchObject({
      status: "open",
      message: expect.stringContaining("8 of 12"),
    });
    for (let i = 0; i < 10; i++) await payment({ status: "consumed", operationKey: "basis" });
    await checkAlerts();
    const recovered = await eventsOf("operation.upstream_recovered");
    expect(recovered.map((e) => e.data.object)).toEqual([expect.objectContaining({ operation: "basis", calls: 22, failures: 8 })]);
    expect(await db.alert.findFirstOrThrow({ where: { kind: "upstream_failing", subject: `${sellerId}:basis` } })).toMatchObject({ status: "resolved" });
  });

  it("a card refund the processor refused: payment.action_required with the payment, until the refund goes through", async () => {
    const id = await payment({ status: "refunded", rail: "card" });
    await db.cardPayment.create({
      data: { paymentId: id, processor: "test", flow: "checkout", refundStatus: "failed", refundError: "card_declined", refundCause: "seller" },
    });
    await checkAlerts();
    const evs = await eventsOf("payment.action_required");
    expect(evs).toHaveLength(1);
    expect(evs[0]!.data).toMatchObject({
      object: { id, status: "refunded", card: { refund: { status: "failed" } } },
      alert: { reason: "refund_failed", detail: "card_declined" },
    });
    await notifyAlerts();
    expect((await listOutbox()).some((m) => m.to === email && m.text.includes(`card refund of payment ${id} failed (card_declined)`))).toBe(true);
    await db.cardPayment.update({ where: { paymentId: id }, data: { refundStatus: "succeeded" } });
    await checkAlerts();
    expect(await db.alert.findFirstOrThrow({ where: { kind: "refund_failed", subject: id } })).toMatchObject({ status: "resolved" });
  });

  it("the checks run on one instance at a time: the lease goes to one holder until it expires", async () => {
    const name = `test-${newId("tst")}`;
    const [a, b] = await Promise.all([claimLease(name, "instance-a", 60_000), claimLease(name, "instance-b", 60_000)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const holder = a ? "instance-a" : "instance-b";
    const other = a ? "instance-b" : "instance-a";
    expect(await claimLease(name, holder, 60_000)).toBe(true);
    expect(await claimLease(name, other, 60_000)).toBe(false);
    await db.backgroundLease.update({ where: { name }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await claimLease(name, other, 60_000)).toBe(true);
  });
});
