// A webhook receiver on loopback, as a seller would run one: it verifies each delivery's Standard Webhooks signature with
// the official `standardwebhooks` library and records what arrived. `mode` makes it answer 200, fail (500), or hang (never
// answer); it also records how many deliveries of one event were in flight at once. Imported by tests only.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = { id: string; timestamp: string; signature: string; body: string; verified: boolean; at: number };

export async function startWebhookReceiver(opts: { secret?: string } = {}) {
  const state = {
    mode: "ok" as "ok" | "fail" | "hang",
    secrets: opts.secret ? [opts.secret] : ([] as string[]),
    received: [] as Received[],
    inFlight: new Map<string, number>(),
    /** The most deliveries of one event ever in flight at the same moment (1: never two at once). */
    maxConcurrentPerEvent: 0,
    /** How long an answer takes in "ok" mode. */
    delayMs: 0,
    /** "ok" mode, but the first delivery of each event answers 500 (so every event is retried once). */
    failFirst: false,
  };
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const verified = state.secrets.some((s) => {
        try {
          new Webhook(s).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const id = headers["webhook-id"];
      state.received.push({ id, timestamp: headers["webhook-timestamp"], signature: headers["webhook-signature"], body, verified, at: Date.now() });
      const now = (state.inFlight.get(id) ?? 0) + 1;
      state.inFlight.set(id, now);
      state.maxConcurrentPerEvent = Math.max(state.maxConcurrentPerEvent, now);
      const done = () => state.inFlight.set(id, (state.inFlight.get(id) ?? 1) - 1);
      if (state.mode === "hang") {
        hung.add(res);
        res.on("close", done);
        return;
      }
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      done();
      const first = state.received.filter((r) => r.id === id).length === 1;
      if (state.mode === "fail" || (state.failFirst && first)) res.writeHead(500, { "content-type": "text/plain" }).end("receiver is down");
      else if (!verified) res.writeHead(400, { "content-type": "text/plain" }).end("bad signature");
      else res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    state,
    /** The parsed bodies that verified, in arrival order. */
    events: () =>
      state.received.filter((r) => r.verified).map((r) => JSON.parse(r.body) as { id: string; type: string; timestamp: string; data: Record<string, unknown> }),
    stop: () =>
      new Promise<void>((r) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
