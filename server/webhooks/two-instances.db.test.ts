// Two app instances' webhook workers (two processes) draining the same deliveries from one PostgreSQL: every event
// reaches the endpoint, none is sent by both at once (each delivery is claimed with FOR UPDATE SKIP LOCKED and a lease),
// and both instances share the work. Then with a receiver that fails each event's first attempt: each is retried
// once and delivered, still never twice at the same moment.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { insertEvent } from "../events/events.queries";
import { createGatewaySeller } from "../testing/gateway";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver";
import { createWebhookEndpoint, updateWebhookEndpoint } from "./manage-endpoints";

const ENV = { WEBHOOK_ALLOW_PRIVATE_URLS: "1", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.05,0.05,0.05" };
let sellerId: string;
let actorId: string;
let receiver: WebhookReceiver;
let workers: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", path.join(import.meta.dirname, "..", "testing", "webhook-worker-child.ts")], {
    env: { ...process.env, ...ENV, WORKER_SELLER_ID: sellerId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("worker started") && resolve(child));
    child.on("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

beforeAll(async () => {
  Object.assign(process.env, ENV);
  resetEnvForTests();
  ({ sellerId } = await createGatewaySeller("http://127.0.0.1:9"));
  actorId = (await db.sellerUser.findFirstOrThrow({ where: { sellerId } })).id;
  receiver = await startWebhookReceiver();
  // Each answer takes a moment, so the two workers' passes overlap.
  receiver.state.delayMs = 60;
  workers = await Promise.all([startWorker(), startWorker()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : (w.once("exit", r), w.kill("SIGTERM"))))));
  await receiver?.stop();
});

async function run(n: number) {
  const { endpoint, secret } = await createWebhookEndpoint({ sellerId, actorId, input: { url: receiver.url } });
  receiver.state.secrets = [secret];
  receiver.state.received = [];
  receiver.state.maxConcurrentPerEvent = 0;
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await insertEvent({ sellerId, type: "operation.upstream_failing", subjectId: `op${i}`, data: { object: { operation: `op${i}` } } }));
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline && (await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: { not: "succeeded" } } })) > 0)
    await new Promise((r) => setTimeout(r, 100));
  await updateWebhookEndpoint({ sellerId, actorId, change: { id: endpoint.id, enabled: false } });
  const deliveries = await db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attemptLog: true } });
  return { ids, deliveries };
}

describe("webhook workers on two instances", () => {
  it("deliver every event exactly once between them, never the same one twice at once", async () => {
    const { ids, deliveries } = await run(120);
    expect(deliveries.every((d) => d.status === "succeeded")).toBe(true);
    const received = receiver.state.received.filter((r) => r.verified).map((r) => r.id);
    expect(received.sort()).toEqual([...ids].sort());
    expect(receiver.state.maxConcurrentPerEvent).toBe(1);
    // Both instances took part.
    expect(new Set(deliveries.flatMap((d) => d.attemptLog.map((a) => a.instance))).size).toBe(2);
  }, 60_000);

  it("retry failed attempts on either instance: each event delivered, none sent twice at the same moment", async () => {
    receiver.state.failFirst = true;
    const { ids, deliveries } = await run(60);
    receiver.state.failFirst = false;
    expect(deliveries.every((d) => d.status === "succeeded" && d.attempts === 2)).toBe(true);
    const counts = new Map<string, number>();
    for (const r of receiver.state.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...ids].sort());
    expect([...counts.values()].every((c) => c === 2)).toBe(true);
    expect(receiver.state.maxConcurrentPerEvent).toBe(1);
  }, 60_000);
});
