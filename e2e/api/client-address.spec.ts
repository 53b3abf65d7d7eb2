// Who the client is, on the built app: the TCP peer by default, whatever X-Forwarded-For (or our own stamp header) the
// client sends; with TRUSTED_PROXY_HOPS = N, the Nth X-Forwarded-For entry from the right. Observed through the budget
// of unauthenticated registrations (POST /agent/identity), which is kept per client address: two more instances of the
// app share the e2e stack's database, each with a budget of 3 a minute.
import http from "node:http";
import { expect, test } from "@playwright/test";
import { startAppInstance } from "../stack";

const HOST = "counted.localhost";
const base = Number(process.env.E2E_PORT ?? 3100);

function register(url: string, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const u = new URL("/agent/identity", url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { host: HOST, "content-type": "application/json", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || "{}") }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ type: "anonymous" }));
  });
}

/** Fixed one-minute windows: start where the next few requests cannot straddle two of them. */
async function awayFromMinuteBoundary(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
}

/** Addresses of this run only (the database outlives nothing, but a rerun within a minute must not meet old counts). */
const net = `198.51.${Math.floor(Math.random() * 250)}`;

test.describe("the client address", () => {
  const instances: { stop: () => void }[] = [];
  test.afterAll(() => instances.forEach((i) => i.stop()));

  test("TRUSTED_PROXY_HOPS=0: a client-sent X-Forwarded-For or stamp changes nothing; the TCP peer is the client", async () => {
    test.setTimeout(120_000);
    const app = await startAppInstance(base + 11, { RATE_LIMIT_CLIENT_PER_MINUTE: "3" });
    instances.push(app);
    await awayFromMinuteBoundary();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await register(app.url, { "x-forwarded-for": `${net}.${i}`, "x-storefront-peer": `forged ${net}.${100 + i}` });
      statuses.push(r.status);
      if (i === 3) expect(r.body).toMatchObject({ error: "rate_limit_exceeded", scope: "client", limit: 3 });
    }
    // Four different forwarded addresses, one peer (127.0.0.1): one budget.
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  test("TRUSTED_PROXY_HOPS=2: the second X-Forwarded-For entry from the right is the client", async () => {
    test.setTimeout(120_000);
    const app = await startAppInstance(base + 12, { RATE_LIMIT_CLIENT_PER_MINUTE: "3", TRUSTED_PROXY_HOPS: "2" });
    instances.push(app);
    await awayFromMinuteBoundary();
    // Leftmost: what the client claimed; second from the right: what our outer proxy saw; rightmost: the inner proxy.
    const chain = (claimed: string, client: string, inner: string) => ({ "x-forwarded-for": `${claimed}, ${client}, ${inner}` });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await register(app.url, chain(`203.0.113.${i}`, `${net}.7`, `10.0.0.${i}`))).status);
    // The same client behind another claimed address and another inner proxy: the same budget, spent.
    statuses.push((await register(app.url, chain("203.0.113.99", `${net}.7`, "10.0.0.99"))).status);
    // Another client (second from the right), with the first one's claimed and inner addresses: a budget of its own.
    statuses.push((await register(app.url, chain("203.0.113.0", `${net}.8`, "10.0.0.0"))).status);
    expect(statuses).toEqual([201, 201, 201, 429, 201]);
  });
});
