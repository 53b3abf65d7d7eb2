// The database reads behind /metrics' deployment-wide gauges: one statement per scrape (cached by metrics.ts), each part
// answered from an index over the few rows it counts (pending settlements, payments in flight, pending deliveries, open
// alerts), never a scan of a large table.
import { poolStats as dbPoolStats, sql } from "../db/client";
import { statesSql } from "../payments/payment-state";

export type DatabaseGauges = {
  outboxPending: number;
  outboxOldestAgeSeconds: number;
  openPayments: { rail: string; state: string; count: number }[];
  webhooksPending: number;
  webhooksOldestAgeSeconds: number;
  openAlerts: { kind: string; count: number }[];
};

export async function readDatabaseGauges(): Promise<DatabaseGauges> {
  const { rows } = await sql<{
    outbox_pending: number;
    outbox_oldest: number;
    open_payments: { rail: string; state: string; count: number }[];
    webhooks_pending: number;
    webhooks_oldest: number;
    open_alerts: { kind: string; count: number }[];
  }>(
    `select
       -- settlements (status, next_attempt_at)
       (select count(*)::int from settlements where status = 'pending') as outbox_pending,
       (select coalesce(extract(epoch from (now() at time zone 'UTC') - min(created_at)), 0)::float8 from settlements where status = 'pending') as outbox_oldest,
       -- payments (status, locked_until): the undecided states only, which stay small
       (select coalesce(json_agg(x), '[]') from (
          select coalesce(rail, 'none') as rail, status::text as state, count(*)::int as count from payments where status in ${statesSql(["verified", "incomplete"])} group by 1, 2
        ) x) as open_payments,
       -- webhook_deliveries (next_attempt_at) where status = 'pending'
       (select count(*)::int from webhook_deliveries where status = 'pending') as webhooks_pending,
       (select coalesce(extract(epoch from (now() at time zone 'UTC') - min(created_at)), 0)::float8 from webhook_deliveries where status = 'pending') as webhooks_oldest,
       -- alerts (status, kind)
       (select coalesce(json_agg(x), '[]') from (select kind, count(*)::int as count from alerts where status = 'open' group by kind) x) as open_alerts`,
  );
  const r = rows[0]!;
  return {
    outboxPending: r.outbox_pending,
    outboxOldestAgeSeconds: Math.max(0, r.outbox_oldest),
    openPayments: r.open_payments,
    webhooksPending: r.webhooks_pending,
    webhooksOldestAgeSeconds: Math.max(0, r.webhooks_oldest),
    openAlerts: r.open_alerts,
  };
}

/** This instance's connection pool (no query). */
export function poolStats() {
  return dbPoolStats();
}
