// Alerts: opened once per subject (the partial unique index on (kind, subject) where status = 'open' decides, whichever
// instance finds it first), each with its event written in the same statement or transaction, emailed once (claimed
// with a lease, so two instances never send the same), resolved when their cause is gone. Also the leases of singleton
// background jobs.
import { db, sql, type Tx } from "../db/client";
import { insertEvent } from "../events/events.queries";
import { statesSql } from "../payments/payment-state";

/** A card refund the processor refused (`card_payments.refund_status`). */
const REFUND_FAILED = "failed";
/** Paid calls whose charge was decided one way or the other. */
const DECIDED = statesSql(["settled", "consumed", "released", "refunded", "failed"]);

const NOW = "(now() at time zone 'UTC')";
const NEW_ID = "'alr_' || replace(gen_random_uuid()::text, '-', '')";

/** Take (or keep) the lease on a singleton job; false while another instance holds an unexpired one. */
export async function claimLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
  const { rowCount } = await sql(
    `insert into background_leases (name, holder, expires_at) values ($1, $2, ${NOW} + make_interval(secs => $3))
     on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where background_leases.expires_at < ${NOW} or background_leases.holder = excluded.holder`,
    [name, holder, ttlMs / 1000],
  );
  return rowCount === 1;
}

/** Settlements still pending `delaySeconds` after they were decided: one alert and one payment.settlement_delayed each. */
export async function openDelayedSettlements(delaySeconds: number, limit: number): Promise<{ sellerId: string; subject: string }[]> {
  const { rows } = await sql<{ seller_id: string; subject: string }>(
    `with late as (
       select s.payment_id, p.seller_id, s.created_at from settlements s join payments p on p.id = s.payment_id
       where s.status = 'pending' and s.created_at < ${NOW} - make_interval(secs => $1)
         and not exists (select 1 from alerts a where a.kind = 'settlement_delayed' and a.subject = s.payment_id)
       order by s.created_at limit $2
     ), opened as (
       insert into alerts (id, seller_id, kind, subject, status, details, opened_at)
       select ${NEW_ID}, seller_id, 'settlement_delayed', payment_id, 'open',
         jsonb_build_object('pending_since', to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'threshold_seconds', $1::int), ${NOW}
       from late
       on conflict (kind, subject) where status = 'open' do nothing
       returning seller_id, subject, details
     )
     select o.seller_id, o.subject, emit_event(o.seller_id, 'payment.settlement_delayed', o.subject, event_payment_snapshot(p) || jsonb_build_object('alert', o.details))
     from opened o join payments p on p.id = o.subject`,
    [delaySeconds, limit],
  );
  return rows.map((r) => ({ sellerId: r.seller_id, subject: r.subject }));
}

/** Card refunds the processor refused: one alert and one payment.action_required each (again if one fails again). */
export async function openFailedRefunds(limit: number): Promise<{ sellerId: string; subject: string }[]> {
  const { rows } = await sql<{ seller_id: string; subject: string }>(
    `with failed as (
       select c.payment_id, p.seller_id, c.refund_error from card_payments c join payments p on p.id = c.payment_id
       where c.refund_status = $2
         and not exists (select 1 from alerts a where a.kind = 'refund_failed' and a.subject = c.payment_id and a.status = 'open')
       limit $1
     ), opened as (
       insert into alerts (id, seller_id, kind, subject, status, details, opened_at)
       select ${NEW_ID}, seller_id, 'refund_failed', payment_id, 'open', jsonb_build_object('reason', 'refund_failed', 'detail', refund_error), ${NOW}
       from failed
       on conflict (kind, subject) where status = 'open' do nothing
       returning seller_id, subject, details
     )
     select o.seller_id, o.subject, emit_event(o.seller_id, 'payment.action_required', o.subject, event_payment_snapshot(p) || jsonb_build_object('alert', o.details))
     from opened o join payments p on p.id = o.subject`,
    // A card refund's own state (card_payments.refund_status), not a payment's: passed as a value.
    [limit, REFUND_FAILED],
  );
  return rows.map((r) => ({ sellerId: r.seller_id, subject: r.subject }));
}

/** Resolve the open alerts whose cause is gone (settled or failed settlements, refunds no longer failed). */
export async function resolveClearedAlerts(): Promise<number> {
  const { rowCount } = await sql(
    `update alerts set status = 'resolved', resolved_at = ${NOW}
     where status = 'open' and (
       (kind = 'settlement_delayed' and not exists (select 1 from settlements s where s.payment_id = alerts.subject and s.status = 'pending'))
       or (kind = 'refund_failed' and not exists (select 1 from card_payments c where c.payment_id = alerts.subject and c.refund_status = $1))
     )`,
    [REFUND_FAILED],
  );
  return rowCount;
}

export type UpstreamWindowRow = { sellerId: string; operationKey: string; reason: string | null; calls: number };

/**
 * Decided paid calls of the last `windowSeconds`, per seller, operation and failure reason: each seller's recent payments
 * through its (seller_id, created_at) index, whose INCLUDE columns answer the rest (an index-only scan).
 */
export async function findUpstreamWindow(windowSeconds: number): Promise<UpstreamWindowRow[]> {
  const { rows } = await sql<{ seller_id: string; operation_key: string; reason: string | null; calls: number }>(
    `select s.id as seller_id, p.operation_key, p.failure_reason as reason, count(*)::int as calls
     from sellers s cross join lateral (
       select operation_key, failure_reason from payments
       where seller_id = s.id and created_at > ${NOW} - make_interval(secs => $1) and status in ${DECIDED}
     ) p
     group by 1, 2, 3`,
    [windowSeconds],
  );
  return rows.map((r) => ({ sellerId: r.seller_id, operationKey: r.operation_key, reason: r.reason, calls: r.calls }));
}

export async function findOpenAlerts(kind: string): Promise<{ id: string; sellerId: string; subject: string; details: unknown }[]> {
  return db.alert.findMany({ where: { kind, status: "open" }, select: { id: true, sellerId: true, subject: true, details: true } });
}

export type AlertEvent = { type: string; subjectId: string; data: unknown };

/** Open one alert and write its event in one transaction; false when the subject already has an open one. */
export async function openAlert(a: { sellerId: string; kind: string; subject: string; details: object }, event: AlertEvent | null, tx?: Tx): Promise<boolean> {
  const run = async (t: Tx) => {
    const opened = await t.$queryRawUnsafe<{ id: string }[]>(
      `insert into alerts (id, seller_id, kind, subject, status, details, opened_at) values (${NEW_ID}, $1, $2, $3, 'open', $4::jsonb, ${NOW})
       on conflict (kind, subject) where status = 'open' do nothing returning id`,
      a.sellerId,
      a.kind,
      a.subject,
      JSON.stringify(a.details),
    );
    if (!opened.length) return false;
    if (event) await insertEvent({ sellerId: a.sellerId, ...event }, t);
    return true;
  };
  return tx ? run(tx) : db.$transaction(run);
}

/** Resolve one open alert and write its event in one transaction; false when it was not open. */
export async function resolveAlert(id: string, event: (AlertEvent & { sellerId: string }) | null): Promise<boolean> {
  return db.$transaction(async (t: Tx) => {
    const n = await t.$executeRawUnsafe(`update alerts set status = 'resolved', resolved_at = ${NOW} where id = $1 and status = 'open'`, id);
    if (n !== 1) return false;
    if (event) await insertEvent(event, t);
    return true;
  });
}

export type UnsentAlert = { id: string; sellerId: string; kind: string; subject: string; status: string; details: unknown; openedAt: Date };

/** Alerts not emailed yet, claimed for `leaseSeconds` (another instance skips them meanwhile). */
export async function claimUnsentAlerts(leaseSeconds: number, limit: number): Promise<UnsentAlert[]> {
  const { rows } = await sql<{ id: string; seller_id: string; kind: string; subject: string; status: string; details: unknown; opened_at: Date }>(
    `update alerts set notify_claimed_until = ${NOW} + make_interval(secs => $1)
     where id in (
       select id from alerts where notified_at is null and (notify_claimed_until is null or notify_claimed_until < ${NOW})
       order by opened_at limit $2 for update skip locked
     )
     returning id, seller_id, kind, subject, status, details, opened_at`,
    [leaseSeconds, limit],
  );
  return rows.map((r) => ({ id: r.id, sellerId: r.seller_id, kind: r.kind, subject: r.subject, status: r.status, details: r.details, openedAt: r.opened_at }));
}

export async function markAlertsSent(ids: string[]): Promise<void> {
  if (ids.length) await sql(`update alerts set notified_at = ${NOW}, notify_claimed_until = null where id = any($1::text[])`, [ids]);
}

/** Where a seller's alerts go: the people who sign in to its console. */
export async function findSellerEmails(sellerId: string): Promise<{ email: string; sellerName: string }[]> {
  const rows = await db.sellerUser.findMany({
    where: { sellerId },
    select: { email: true, seller: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ email: r.email, sellerName: r.seller.name }));
}

/** A seller's alerts, open first, then newest (console). */
export async function findSellerAlerts(sellerId: string, take: number) {
  return db.alert.findMany({
    where: { sellerId },
    orderBy: [{ status: "asc" }, { openedAt: "desc" }],
    take,
    select: { id: true, kind: true, subject: true, status: true, details: true, openedAt: true, resolvedAt: true, notifiedAt: true },
  });
}

/** Retention: resolved alerts older than `before`. */
export async function deleteResolvedAlertsBefore(before: Date): Promise<number> {
  const { rowCount } = await sql(`delete from alerts where status = 'resolved' and resolved_at < $1::timestamptz at time zone 'UTC'`, [before.toISOString()]);
  return rowCount;
}

/** Resolve a subject's open alert of `kind` in the caller's transaction (an endpoint enabled again or removed). */
export async function resolveAlertsOf(tx: Tx, kind: string, subject: string): Promise<void> {
  await tx.$executeRawUnsafe(`update alerts set status = 'resolved', resolved_at = ${NOW} where kind = $1 and subject = $2 and status = 'open'`, kind, subject);
}
