// The operator's endpoints on the built app: liveness, readiness (PostgreSQL, migrations, the e2e stack's chain),
// Prometheus metrics behind their token, and the request id a client can quote.
import { expect, test } from "@playwright/test";
import { E2E_OPERATIONS_ENV } from "../../scripts/test/test-env";

const TOKEN = E2E_OPERATIONS_ENV.METRICS_TOKEN;

/** One sample of the exposition text (`name{labels} value`), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("/healthz answers and /readyz is ready: PostgreSQL reachable and migrated, the chain answering as Base", async ({ request }) => {
  const live = await request.get("/healthz");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(ready.headers()["cache-control"]).toBe("no-store");
  expect(await ready.json()).toMatchObject({
    status: "ready",
    checks: { database: { ok: true }, migrations: { ok: true }, chain: { ok: true } },
  });
});

test("/metrics wants its bearer token, then counts the 402 funnel and requests by route", async ({ request }) => {
  expect((await request.get("/metrics")).status()).toBe(401);
  expect((await request.get("/metrics", { headers: { authorization: "Bearer not-the-token-0000" } })).status()).toBe(401);
  const scrape = async () => {
    const res = await request.get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/plain/);
    return res.text();
  };
  const before = await scrape();
  const challenges = 'storefront_payment_challenges_total{route="/api/v1/[...path]"}';
  const requests = 'storefront_http_requests_total{route="/api/v1/[...path]",method="GET",status="402"}';
  for (let i = 0; i < 3; i++) expect((await request.get("/api/v1/aggregates/AAPL")).status()).toBe(402);
  const after = await scrape();
  expect(sample(after, challenges) - sample(before, challenges)).toBe(3);
  expect(sample(after, requests) - sample(before, requests)).toBe(3);
  expect(after).toMatch(/^storefront_settlement_outbox_pending \d+$/m);
  expect(after).toMatch(/^storefront_db_pool_connections\{state="total"\} \d+$/m);
  expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
});

test("every answer carries a request id: the one the client (or its load balancer) sent, or a new one", async ({ request }) => {
  const mine = await request.get("/manifest.json", { headers: { "x-request-id": "lb-7f3a-1234" } });
  expect(mine.headers()["x-request-id"]).toBe("lb-7f3a-1234");
  const fresh = await request.get("/no/such/path");
  expect(fresh.status()).toBe(404);
  expect(fresh.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
});
