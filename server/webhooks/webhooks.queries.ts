// Webhook endpoints and deliveries. Deliveries are made by emit_event() with their event; workers on every instance claim
// due ones with FOR UPDATE SKIP LOCKED and a lease (two instances never hold the same delivery), and record an attempt's
// outcome only with the claim token they were given (a worker whose lease ran out records its attempt, not the state).
import { db, sql, type Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const NOW = "(now() at time zone 'UTC')";

export type ClaimedDelivery = {
  id: string;
  sellerId: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  maxAttempts: number | null;
  url: string;
  secretEnc: string;
  previousSecretEnc: string | null;
  previousSecretExpiresAt: Date | null;
  eventType: string;
  eventCreatedAt: Date;
  eventData: unknown;
};

/**
 * Claim up to `limit` due deliveries of enabled endpoints for `leaseSeconds`, counting the attempt now. `sellerId`
 * narrows it to one seller's (tests, which share one database between files).
 */
export async function claimDueDeliveries(limit: number, leaseSeconds: number, token: string, sellerId: string | null = null): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<Record<string, unknown>>(
    `with due as (
       select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.status = 'enabled'
       where d.status = 'pending' and d.next_attempt_at <= ${NOW} and (d.claimed_until is null or d.claimed_until < ${NOW})
         and ($4::text is null or d.seller_id = $4)
       order by d.next_attempt_at limit $1
       for update of d skip locked
     ), c as (
       update webhook_deliveries d set claimed_until = ${NOW} + make_interval(secs => $2), claim_token = $3, attempts = d.attempts + 1
       from due where d.id = due.id
       returning d.id, d.seller_id, d.endpoint_id, d.event_id, d.attempts, d.max_attempts
     )
     select c.id, c.seller_id, c.endpoint_id, c.event_id, c.attempts, c.max_attempts, e.url, e.secret_enc, e.previous_secret_enc,
       e.previous_secret_expires_at, ev.type as event_type, ev.created_at as event_created_at, ev.data as event_data
     from c join webhook_endpoints e on e.id = c.endpoint_id join events ev on ev.id = c.event_id`,
    [limit, leaseSeconds, token, sellerId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    sellerId: r.seller_id as string,
    endpointId: r.endpoint_id as string,
    eventId: r.event_id as string,
    attempts: r.attempts as number,
    maxAttempts: r.max_attempts as number | null,
    url: r.url as string,
    secretEnc: r.secret_enc as string,
    previousSecretEnc: r.previous_secret_enc as string | null,
    previousSecretExpiresAt: r.previous_secret_expires_at as Date | null,
    eventType: r.event_type as string,
    eventCreatedAt: r.event_created_at as Date,
    eventData: r.event_data,
  }));
}

export type AttemptRecord = {
  deliveryId: string;
  token: string;
  instance: string;
  status: number | null;
  latencyMs: number;
  response: string | null;
  error: string | null;
};

/**
 * Record one attempt: always its row in webhook_attempts; the delivery's new state only if this worker still holds the
 * claim. `next`: "succeeded", a Date to retry at, or "failed" (given up). Returns the endpoint's failing_since after it
 * (null when it just succeeded) and whether the claim was still ours.
 */
export async function recordAttempt(
  a: AttemptRecord,
  next: "succeeded" | "failed" | Date,
): Promise<{ owned: boolean; endpointId: string | null; failingSince: Date | null }> {
  const ok = next === "succeeded";
  const { rows } = await sql<{ owned: boolean; endpoint_id: string | null; failing_since: Date | null }>(
    `with att as (
       -- (unless the endpoint, and with it the delivery, was removed while the attempt ran)
       insert into webhook_attempts (delivery_id, instance, status, latency_ms, response, error, created_at)
       select $1, $3, $4::int, $5::int, $6, $7, ${NOW} where exists (select 1 from webhook_deliveries where id = $1)
     ), d as (
       update webhook_deliveries set
         status = $8, next_attempt_at = coalesce($9::timestamptz at time zone 'UTC', next_attempt_at), last_attempt_at = ${NOW},
         last_status = $4, last_latency_ms = $5, last_response = $6, last_error = $7,
         delivered_at = case when $8 = 'succeeded' then ${NOW} else delivered_at end, claimed_until = null, claim_token = null
       where id = $1 and claim_token = $2 and status = 'pending'
       returning endpoint_id
     ), e as (
       update webhook_endpoints set failing_since = case when $10 then null else coalesce(failing_since, ${NOW}) end
       where id = (select endpoint_id from d)
       returning id, failing_since
     )
     select exists (select 1 from d) as owned, (select id from e) as endpoint_id, (select failing_since from e) as failing_since`,
    [
      a.deliveryId,
      a.token,
      a.instance,
      a.status,
      a.latencyMs,
      a.response,
      a.error,
      ok ? "succeeded" : next === "failed" ? "failed" : "pending",
      next instanceof Date ? next.toISOString() : null,
      ok,
    ],
  );
  const r = rows[0]!;
  return { owned: r.owned, endpointId: r.endpoint_id, failingSince: r.failing_since };
}

const endpointSelect = {
  id: true,
  sellerId: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  failingSince: true,
  disabledAt: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
  previousSecretExpiresAt: true,
} as const satisfies Prisma.WebhookEndpointSelect;

export type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointSelect }>;

/**
 * Disable an endpoint that has failed since before `failingBefore` (still enabled, still failing), fail its pending
 * deliveries, and let `then` write the event and alert, all in one transaction. Null when another worker (or a success)
 * got there first.
 */
export async function disableFailingEndpoint(
  endpointId: string,
  failingBefore: Date,
  reason: string,
  then: (tx: Tx, e: EndpointRow) => Promise<void>,
): Promise<{ endpoint: EndpointRow; failedDeliveries: number } | null> {
  return db.$transaction(async (tx: Tx) => {
    const moved = await tx.webhookEndpoint.updateMany({
      where: { id: endpointId, status: "enabled", failingSince: { lt: failingBefore } },
      data: { status: "disabled", disabledAt: new Date(), disabledReason: reason, updatedAt: new Date() },
    });
    if (moved.count !== 1) return null;
    const failed = await tx.webhookDelivery.updateMany({
      where: { endpointId, status: "pending" },
      data: { status: "failed", lastError: "endpoint disabled", claimedUntil: null, claimToken: null },
    });
    const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: endpointSelect });
    await then(tx, endpoint);
    return { endpoint, failedDeliveries: failed.count };
  });
}

// ---------- the console ----------

export async function findEndpoints(sellerId: string) {
  const rows = await db.webhookEndpoint.findMany({ where: { sellerId }, orderBy: { createdAt: "asc" }, select: endpointSelect });
  if (!rows.length) return [];
  const { rows: stats } = await sql<{ endpoint_id: string; pending: number; failed_24h: number; last_status: string | null; last_at: Date | null }>(
    `select e.id as endpoint_id,
       (select count(*)::int from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending') as pending,
       (select count(*)::int from webhook_deliveries d where d.endpoint_id = e.id and d.status = $2 and d.created_at > ${NOW} - interval '1 day') as failed_24h,
       l.status as last_status, l.last_attempt_at as last_at
     from webhook_endpoints e
     left join lateral (select status, last_attempt_at from webhook_deliveries d where d.endpoint_id = e.id and d.last_attempt_at is not null
                        order by d.last_attempt_at desc limit 1) l on true
     where e.seller_id = $1`,
    // A delivery's own state (webhook_deliveries.status), not a payment's: passed as a value.
    [sellerId, "failed"],
  );
  const byId = new Map(stats.map((s) => [s.endpoint_id, s]));
  return rows.map((r) => ({ ...r, stats: byId.get(r.id) ?? null }));
}

export async function countEndpoints(sellerId: string): Promise<number> {
  return db.webhookEndpoint.count({ where: { sellerId } });
}

export async function findEndpoint(sellerId: string, id: string): Promise<EndpointRow | null> {
  return db.webhookEndpoint.findFirst({ where: { id, sellerId }, select: endpointSelect });
}

export async function insertEndpoint(
  tx: Tx,
  e: { id: string; sellerId: string; url: string; description: string; eventTypes: string[]; secretEnc: string },
): Promise<EndpointRow> {
  const now = new Date();
  return tx.webhookEndpoint.create({ data: { ...e, status: "enabled", createdAt: now, updatedAt: now }, select: endpointSelect });
}

export async function updateEndpointRow(
  tx: Tx,
  sellerId: string,
  id: string,
  data: Partial<{
    url: string;
    description: string;
    eventTypes: string[];
    status: string;
    secretEnc: string;
    previousSecretEnc: string | null;
    previousSecretExpiresAt: Date | null;
    failingSince: Date | null;
    disabledAt: Date | null;
    disabledReason: string | null;
  }>,
): Promise<EndpointRow | null> {
  const n = await tx.webhookEndpoint.updateMany({ where: { id, sellerId }, data: { ...data, updatedAt: new Date() } });
  if (n.count !== 1) return null;
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: endpointSelect });
}

/** The endpoint's sealed secret (rotation keeps it as the previous one). */
export async function findEndpointSecret(tx: Tx, sellerId: string, id: string): Promise<string | null> {
  return (await tx.webhookEndpoint.findFirst({ where: { id, sellerId }, select: { secretEnc: true } }))?.secretEnc ?? null;
}

export async function deleteEndpointRow(tx: Tx, sellerId: string, id: string): Promise<EndpointRow | null> {
  const row = await tx.webhookEndpoint.findFirst({ where: { id, sellerId }, select: endpointSelect });
  if (!row) return null;
  await tx.webhookEndpoint.delete({ where: { id } });
  return row;
}

export type DeliveryCursor = { createdAt: Date; id: string };

/** An endpoint's deliveries, newest first, keyset-paged (webhook_deliveries (endpoint_id, created_at desc)). */
export async function findDeliveries(sellerId: string, endpointId: string, opts: { status?: string; cursor: DeliveryCursor | null; take: number }) {
  return db.webhookDelivery.findMany({
    where: {
      sellerId,
      endpointId,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.cursor ? { OR: [{ createdAt: { lt: opts.cursor.createdAt } }, { createdAt: opts.cursor.createdAt, id: { lt: opts.cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.take,
    select: {
      id: true,
      eventId: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastAttemptAt: true,
      lastStatus: true,
      lastLatencyMs: true,
      lastResponse: true,
      lastError: true,
      deliveredAt: true,
      createdAt: true,
      event: { select: { type: true } },
    },
  });
}

export async function findDelivery(sellerId: string, id: string) {
  return db.webhookDelivery.findFirst({
    where: { id, sellerId },
    select: {
      id: true,
      endpointId: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      deliveredAt: true,
      event: { select: { id: true, type: true, createdAt: true, data: true } },
      attemptLog: { orderBy: { id: "asc" }, select: { id: true, instance: true, status: true, latencyMs: true, response: true, error: true, createdAt: true } },
    },
  });
}

/**
 * Send a delivery again, now: one more attempt for a delivery that succeeded or was given up on; a pending one is tried
 * now and keeps its schedule. Only for an enabled endpoint and a delivery no worker is sending right now.
 */
export async function reopenDelivery(sellerId: string, id: string): Promise<"reopened" | "not_found" | "endpoint_disabled" | "in_flight"> {
  const { rows } = await sql<{ result: string }>(
    `with target as (
       select d.id, e.status as endpoint_status, (d.claimed_until is not null and d.claimed_until > ${NOW}) as in_flight
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where d.id = $1 and d.seller_id = $2
     ), u as (
       update webhook_deliveries d set status = 'pending', next_attempt_at = ${NOW},
         -- a delivery given up on gets one more attempt; one still being retried keeps its schedule, only sooner
         max_attempts = case when d.status = 'pending' then d.max_attempts else d.attempts + 1 end, claimed_until = null, claim_token = null
       from target t where d.id = t.id and t.endpoint_status = 'enabled' and not t.in_flight
       returning d.id
     )
     select case when not exists (select 1 from target) then 'not_found'
                 when exists (select 1 from u) then 'reopened'
                 when (select endpoint_status from target) <> 'enabled' then 'endpoint_disabled'
                 else 'in_flight' end as result`,
    [id, sellerId],
  );
  return rows[0]!.result as "reopened" | "not_found" | "endpoint_disabled" | "in_flight";
}

/** A transaction for the console's changes (the change and its audit row commit together). */
export function withTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(fn);
}
