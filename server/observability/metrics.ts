// Prometheus metrics (prom-client), served at GET /metrics with METRICS_TOKEN. Counters and histograms are per instance
// (Prometheus scrapes each instance and sums them); the gauges read from PostgreSQL at scrape time (outbox depth, open
// payments, pending deliveries, open alerts) describe the whole deployment, so every instance reports the same value:
// aggregate those with max(), not sum(). docs/operating.md lists them with the alert rules that use them.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { poolStats, readDatabaseGauges, type DatabaseGauges } from "./metrics.queries";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const r = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "storefront_http_requests_total",
      help: "Requests answered, by route template, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers: r,
    }),
    httpDuration: new Histogram({
      name: "storefront_http_request_duration_seconds",
      help: "Time to answer a request (until the handler returned its response), by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    challenges: new Counter({
      name: "storefront_payment_challenges_total",
      help: "402 challenges issued (the first step of the 402 funnel), by route template.",
      labelNames: ["route"] as const,
      registers: r,
    }),
    refusals: new Counter({
      name: "storefront_payment_refusals_total",
      help: "Paid-path answers refusing a payment or a request (error code, e.g. payment_required, settlement_failed, rate_limit_exceeded), by route template.",
      labelNames: ["route", "code"] as const,
      registers: r,
    }),
    paidCalls: new Counter({
      name: "storefront_paid_calls_total",
      help: "Paid calls answered, by rail, operation and billing outcome (charged, settlement_pending, released, refunded, settlement_failed).",
      labelNames: ["rail", "operation", "outcome"] as const,
      registers: r,
    }),
    settlement: new Histogram({
      name: "storefront_settlement_duration_seconds",
      help: "Time a paid call spent settling its payment before answering (the settle phase of Server-Timing), by rail.",
      labelNames: ["rail"] as const,
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    rateLimited: new Counter({
      name: "storefront_rate_limited_total",
      help: "Requests refused by a rate limit, by scope (payer, seller).",
      labelNames: ["scope"] as const,
      registers: r,
    }),
    upstreamDuration: new Histogram({
      name: "storefront_upstream_duration_seconds",
      help: "Time the seller's upstream took to answer a paid call, by operation.",
      labelNames: ["operation"] as const,
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    upstreamErrors: new Counter({
      name: "storefront_upstream_errors_total",
      help: "Upstream failures on paid calls (the caller was not charged), by operation and kind (status_5xx, timeout, unreachable).",
      labelNames: ["operation", "kind"] as const,
      registers: r,
    }),
    reconcilerRuns: new Counter({
      name: "storefront_reconciler_runs_total",
      help: "Settlement reconciler passes on this instance, by result (ok, error).",
      labelNames: ["result"] as const,
      registers: r,
    }),
    reconcilerDuration: new Histogram({
      name: "storefront_reconciler_duration_seconds",
      help: "Duration of a reconciler pass.",
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers: r,
    }),
    reconciled: new Counter({
      name: "storefront_reconciler_payments_total",
      help: "Payments the reconciler finished, by outcome (settled, failed, released, still pending).",
      labelNames: ["outcome"] as const,
      registers: r,
    }),
    reconcilerLastSuccess: new Gauge({
      name: "storefront_reconciler_last_success_timestamp_seconds",
      help: "When this instance's reconciler last completed a pass (Unix time).",
      registers: r,
    }),
    webhookAttempts: new Counter({
      name: "storefront_webhook_attempts_total",
      help: "Webhook delivery attempts, by outcome (succeeded, failed) and the endpoint's answer class (2xx, 4xx, 5xx, timeout, error).",
      labelNames: ["outcome", "class"] as const,
      registers: r,
    }),
    webhookDuration: new Histogram({
      name: "storefront_webhook_attempt_duration_seconds",
      help: "Time an endpoint took to answer a delivery attempt.",
      buckets: LATENCY_BUCKETS,
      registers: r,
    }),
    webhookGaveUp: new Counter({
      name: "storefront_webhook_deliveries_failed_total",
      help: "Deliveries given up (retries exhausted or the endpoint disabled).",
      registers: r,
    }),
    webhookEndpointsDisabled: new Counter({
      name: "storefront_webhook_endpoints_disabled_total",
      help: "Endpoints disabled after failing for WEBHOOK_DISABLE_AFTER_HOURS.",
      registers: r,
    }),
    alertsOpened: new Counter({
      name: "storefront_alerts_opened_total",
      help: "Alerts opened by this instance's checks, by kind.",
      labelNames: ["kind"] as const,
      registers: r,
    }),
  };
}

export type Metrics = ReturnType<typeof build>;

const g = globalThis as unknown as { __storefrontMetrics?: Metrics };

/** The process's metrics, made once. On globalThis: instrumentation and route handlers are bundled apart. */
export function metrics(): Metrics {
  if (!g.__storefrontMetrics) {
    g.__storefrontMetrics = build();
    registerDatabaseGauges(g.__storefrontMetrics.registry);
  }
  return g.__storefrontMetrics;
}

// Scrape-time reads of PostgreSQL, one statement for all of them, shared by the gauges of one scrape and cached briefly
// so a scrape every few seconds (or several scrapers) costs one statement per CACHE_MS.
const CACHE_MS = 5_000;
let cached: { at: number; value: Promise<DatabaseGauges | null> } | undefined;

function databaseGauges(): Promise<DatabaseGauges | null> {
  if (!cached || Date.now() - cached.at > CACHE_MS) cached = { at: Date.now(), value: readDatabaseGauges().catch(() => null) };
  return cached.value;
}

function registerDatabaseGauges(registry: Registry) {
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge<string>, d: DatabaseGauges) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const d = await databaseGauges();
        this.reset();
        if (d) fill(this, d);
      },
    });
  gauge("storefront_settlement_outbox_pending", "Settlements waiting in the outbox (whole deployment).", [], (g, d) => g.set(d.outboxPending));
  gauge("storefront_settlement_outbox_oldest_age_seconds", "Age of the oldest pending settlement (0: none; whole deployment).", [], (g, d) =>
    g.set(d.outboxOldestAgeSeconds),
  );
  gauge(
    "storefront_payments_open",
    "Payments not yet decided, by rail and state (verified: in flight, incomplete: a checkout open).",
    ["rail", "state"],
    (g, d) => {
      for (const p of d.openPayments) g.set({ rail: p.rail, state: p.state }, p.count);
    },
  );
  gauge("storefront_webhook_deliveries_pending", "Webhook deliveries waiting to be sent or retried (whole deployment).", [], (g, d) =>
    g.set(d.webhooksPending),
  );
  gauge("storefront_webhook_deliveries_oldest_age_seconds", "Age of the oldest pending webhook delivery (0: none).", [], (g, d) =>
    g.set(d.webhooksOldestAgeSeconds),
  );
  gauge("storefront_alerts_open", "Alerts open, by kind (whole deployment).", ["kind"], (g, d) => {
    for (const a of d.openAlerts) g.set({ kind: a.kind }, a.count);
  });
  new Gauge({
    name: "storefront_db_pool_connections",
    help: "This instance's PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting).",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const pool = poolStats();
      this.reset();
      if (!pool) return;
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
    },
  });
}

/** The exposition text and its content type. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}

/**
 * One reconciler pass, timed and counted (the reconciler's one hook: `const r = await observeReconcilerRun(reconcileOnce)`).
 * A pass that throws is counted as an error and rethrown unchanged.
 */
export async function observeReconcilerRun<T extends { settled: number; failed: number; pending: number; released: number }>(
  run: () => Promise<T>,
): Promise<T> {
  const m = metrics();
  const end = m.reconcilerDuration.startTimer();
  try {
    const r = await run();
    m.reconcilerRuns.inc({ result: "ok" });
    m.reconcilerLastSuccess.set(Date.now() / 1000);
    for (const outcome of ["settled", "failed", "pending", "released"] as const) if (r[outcome]) m.reconciled.inc({ outcome }, r[outcome]);
    return r;
  } catch (e) {
    m.reconcilerRuns.inc({ result: "error" });
    throw e;
  } finally {
    end();
  }
}
