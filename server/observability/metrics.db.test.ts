// GET /metrics: off without METRICS_TOKEN, a bearer token otherwise, Prometheus text with the request metrics the route
// wrapper reads off every answer (the paid path needs no hook: svc-billing, Server-Timing and the error code say it all)
// and the deployment's gauges read from PostgreSQL at scrape time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as metricsRoute from "../../app/metrics/route";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { AppError } from "../errors";
import { errorResponse, json } from "../http/respond";
import { methods } from "../http/route";
import { newId } from "../lib/ids";
import { createGatewaySeller } from "../testing/gateway";

const TOKEN = "metrics-token-0123456789";
let sellerId: string;
let paymentId: string;

beforeAll(async () => {
  ({ sellerId } = await createGatewaySeller("http://127.0.0.1:9"));
  paymentId = newId("pay");
  await db.payment.create({
    data: {
      id: paymentId,
      sellerId,
      status: "verified",
      rail: "x402",
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: "aggregates",
      amountMicros: 20_000n,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  await db.settlement.create({ data: { id: newId("stl"), paymentId, status: "pending", claimedUntil: new Date(), createdAt: new Date(Date.now() - 90_000) } });
});

afterAll(async () => {
  await db.payment.delete({ where: { id: paymentId } });
});

const scrape = (authorization?: string) =>
  metricsRoute.GET(new Request("http://localhost/metrics", { headers: authorization ? { authorization } : {} }), { params: Promise.resolve({}) });

/** The value of one sample (`name{labels}`), 0 when absent. */
async function sample(series: string): Promise<number> {
  const text = await (await withEnvForTests({ METRICS_TOKEN: TOKEN }, () => scrape(`Bearer ${TOKEN}`))).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

// What the gateway answers, in shape: a paid call, a released one, a timeout, a 402 challenge, a rate limit.
const gateway = methods({
  GET: async (ctx) => {
    const kind = ctx.url.searchParams.get("kind");
    const billing = (status: string) => `payment=pay_x; rail=x402; operation=aggregates; meter=aggregates; status=${status}`;
    if (kind === "charged")
      return new Response("{}", { headers: { "svc-billing": billing("charged"), "server-timing": "upstream;dur=3.0, settle;dur=5.0, total;dur=9.0" } });
    if (kind === "released") return new Response("{}", { status: 502, headers: { "svc-billing": billing("released") } });
    if (kind === "timeout")
      return errorResponse(new AppError("upstream_timeout", { headers: { "svc-billing": billing("released") }, extra: { payment_id: "pay_x" } }));
    if (kind === "limited") throw new AppError("rate_limit_exceeded", { extra: { retry_after: 3, scope: "payer", limit: 600 } });
    return json({ error: "payment_required" }, { status: 402 });
  },
});
const call = (kind: string) =>
  gateway.GET(new Request(`http://localhost/api/v1/aggregates/AAPL?kind=${kind}`), { params: Promise.resolve({ path: ["aggregates", "AAPL"] }) });

describe("/metrics", () => {
  it("is off (404) without METRICS_TOKEN, and wants the token with it", async () => {
    await withEnvForTests({ METRICS_TOKEN: undefined }, async () => {
      const off = await scrape();
      expect(off.status).toBe(404);
      expect((await off.json()).error).toBe("not_found");
    });
    await withEnvForTests({ METRICS_TOKEN: TOKEN }, async () => {
      const none = await scrape();
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await scrape("Bearer wrong-token-0123456789")).status).toBe(401);
      const ok = await scrape(`Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await ok.text()).toMatch(/^process_cpu_user_seconds_total /m);
    });
  });

  it("counts requests by route and status, the 402 funnel, paid calls by rail and outcome, upstream and settlement time, rate limits", async () => {
    const route = 'route="/api/v1/[...path]"';
    const before = {
      ok: await sample(`storefront_http_requests_total{${route},method="GET",status="200"}`),
      challenges: await sample(`storefront_payment_challenges_total{${route}}`),
      charged: await sample('storefront_paid_calls_total{rail="x402",operation="aggregates",outcome="charged"}'),
      released: await sample('storefront_paid_calls_total{rail="x402",operation="aggregates",outcome="released"}'),
      upstream: await sample('storefront_upstream_duration_seconds_count{operation="aggregates"}'),
      settle: await sample('storefront_settlement_duration_seconds_count{rail="x402"}'),
      errors5xx: await sample('storefront_upstream_errors_total{operation="aggregates",kind="status_5xx"}'),
      timeouts: await sample('storefront_upstream_errors_total{operation="aggregates",kind="timeout"}'),
      limited: await sample('storefront_rate_limited_total{scope="payer"}'),
      refusals: await sample(`storefront_payment_refusals_total{${route},code="rate_limit_exceeded"}`),
    };
    for (const kind of ["challenge", "charged", "charged", "released", "timeout", "limited"]) await call(kind);
    expect(await sample(`storefront_http_requests_total{${route},method="GET",status="200"}`)).toBe(before.ok + 2);
    expect(await sample(`storefront_payment_challenges_total{${route}}`)).toBe(before.challenges + 1);
    expect(await sample('storefront_paid_calls_total{rail="x402",operation="aggregates",outcome="charged"}')).toBe(before.charged + 2);
    expect(await sample('storefront_paid_calls_total{rail="x402",operation="aggregates",outcome="released"}')).toBe(before.released + 2);
    expect(await sample('storefront_upstream_duration_seconds_count{operation="aggregates"}')).toBe(before.upstream + 2);
    expect(await sample('storefront_settlement_duration_seconds_count{rail="x402"}')).toBe(before.settle + 2);
    expect(await sample('storefront_upstream_errors_total{operation="aggregates",kind="status_5xx"}')).toBe(before.errors5xx + 1);
    expect(await sample('storefront_upstream_errors_total{operation="aggregates",kind="timeout"}')).toBe(before.timeouts + 1);
    expect(await sample('storefront_rate_limited_total{scope="payer"}')).toBe(before.limited + 1);
    expect(await sample(`storefront_payment_refusals_total{${route},code="rate_limit_exceeded"}`)).toBe(before.refusals + 1);
    expect(await sample(`storefront_http_request_duration_seconds_count{${route},method="GET"}`)).toBeGreaterThanOrEqual(6);
  });

  it("reads the deployment's gauges from PostgreSQL: the settlement outbox, payments in flight, the pool", async () => {
    expect(await sample("storefront_settlement_outbox_pending")).toBeGreaterThanOrEqual(1);
    expect(await sample("storefront_settlement_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(89);
    expect(await sample('storefront_payments_open{rail="x402",state="verified"}')).toBeGreaterThanOrEqual(1);
    expect(await sample('storefront_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(await sample("storefront_webhook_deliveries_pending")).toBeGreaterThanOrEqual(0);
  });
});
