// The payments domain's statements on the payments, settlements and ledger tables for the paid path. Every state
// change is guarded by the state before it, and both come from a transition of payment-state.ts (the guard and the
// new state of each statement below), so two racers (instances, the reconciler) cannot both move a payment and no
// statement makes a move the table does not have; a money movement (settled + ledger + outbox) is one statement.
// The paid path's statements are plain SQL on the shared pool (`sql`): one round trip each.
import { db, sql, type Tx } from "../db/client";
import type { Prisma, PaymentStatus as DbPaymentStatus } from "../db/generated/client";
import { run, statement } from "../db/statement";
import { newId } from "../lib/ids";
import { challengedRow, challengeTermsOf } from "./challenges.queries";
import { stateSql, transition, type PaymentStatus } from "./payment-state";

export type PaymentRow = Prisma.PaymentGetPayload<object>;

// The contract's list of states and the database enum are the same set (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const statesMatch: Same<PaymentStatus, DbPaymentStatus> = true;
void statesMatch;

// The `timestamp(3)` columns hold UTC wall time (as Prisma writes them); raw statements convert explicitly.
const utc = (d: Date) => d.toISOString();
export type { PaymentStatus, Tx };

/**
 * What settling a payment cost the seller, where the rail knows it (the console's margin): gas its wallet paid, in wei
 * of the chain's native token, and a provider's fee in micro-USD (card processing). Absent: not known, never guessed.
 */
export type SettlementCost = { gasWei?: bigint; feeMicros?: bigint };

/** A row born from a signed challenge id (docs/challenges.md): its id carries a '.', which no ordinary id (lib/ids.ts) does. */
export const SIGNED_ID = "strpos(id, '.') > 0";
const RELEASE = transition("verified", "released");

/** A payment of this seller: its row, else the unpaid challenge its signed id describes. */
export async function findPayment(sellerId: string, id: string): Promise<PaymentRow | null> {
  return (await db.payment.findFirst({ where: { id, sellerId } })) ?? unsavedChallengedPayment(sellerId, id);
}

/** The same with what a challenge's unsaved row has of its relations: none. */
export function unsavedChallengedPayment(sellerId: string, id: string): PaymentRow | null {
  const c = challengeTermsOf(sellerId, id);
  return c ? challengedRow(id, c.terms) : null;
}

export async function findPaymentByLockKey(lockKey: string): Promise<PaymentRow | null> {
  return db.payment.findUnique({ where: { lockKey } });
}

/** A payment's refund ledger rows, in the order they were made (a card payment may have several partial ones). */
export async function findRefundEntries(paymentId: string) {
  return db.ledgerEntry.findMany({
    where: { paymentId, kind: "refund" },
    orderBy: { seq: "asc" },
    select: { amountMicros: true, transaction: true, logIndex: true, createdAt: true },
  });
}

/** verified -> released: nothing is charged and the proof is never spendable here again. */
export async function releasePayment(id: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const { rowCount } = await run(RELEASE_PAYMENT, { id, reason, upstream_status: upstreamStatus ?? null });
  return rowCount === 1;
}

const RELEASE_PAYMENT = statement<{ id: string; reason: string; upstream_status: number | null }>(
  `update payments set status = ${RELEASE.set}, failure_reason = :reason, upstream_status = :upstream_status, locked_until = null, updated_at = now() at time zone 'UTC'
   where id = :id and ${RELEASE.guard()} and not exists (select 1 from settlements s where s.payment_id = payments.id)`,
  "payments_release",
);

/**
 * The decision to charge, made durable before the rail is asked to charge: the outbox row, leased to this
 * instance. False if the payment is no longer verified (e.g. the reconciler released it meanwhile).
 */
export async function scheduleSettlement(paymentId: string, upstreamStatus: number, units: number, leaseSeconds: number): Promise<boolean> {
  // One statement (atomic on its own): the outbox row exists only if the payment was still verified.
  // Timestamps are UTC, as Prisma writes them into these `timestamp(3)` columns.
  const { rowCount } = await run(SCHEDULE_SETTLEMENT, { id: paymentId, upstream_status: upstreamStatus, lease: leaseSeconds, settlement: newId("stl"), units });
  return rowCount === 1;
}

type ScheduleParams = { id: string; upstream_status: number; lease: number; settlement: string; units: number };

/** The payment still verified, its lease renewed: what both scheduling statements start from. */
const SCHEDULED_PAYMENT = `update payments set upstream_status = :upstream_status, locked_until = (now() at time zone 'UTC') + make_interval(secs => :lease),
         updated_at = now() at time zone 'UTC'
       where id = :id and status = ${stateSql("verified")}`;

const SCHEDULE_SETTLEMENT = statement<ScheduleParams>(
  `with p as (
     ${SCHEDULED_PAYMENT}
     returning id, locked_until
   )
   insert into settlements (id, payment_id, status, units, claimed_until, next_attempt_at, attempts, created_at, updated_at)
   select :settlement, p.id, 'pending', :units, p.locked_until, now() at time zone 'UTC', 1, now() at time zone 'UTC', now() at time zone 'UTC' from p`,
  "payments_schedule_settlement",
);

/**
 * scheduleSettlement, deciding in the same statement whether the paid answer may go out before the settlement is
 * included (`deliverFirst`: the seller's default cap, or null when this call waits for inclusion whatever the cap).
 * It may when the payer wallet's value delivered and not yet settled, with this payment, stays within the seller's cap
 * (seller_settings.unsettled_cap_micros, else the default) and no settlement of that wallet failed after delivery. The
 * payer's payer_exposures row is added to by a guarded upsert: concurrent calls of one wallet queue on that row and
 * each sees the sum the others left, so together they never pass the cap. Null when the payment is no longer verified.
 */
export async function scheduleSettlementDeliveringFirst(
  paymentId: string,
  upstreamStatus: number,
  units: number,
  leaseSeconds: number,
  deliverFirst: { defaultCapMicros: bigint; defaultSellerCapMicros: bigint } | null,
): Promise<{ deliveredFirst: boolean } | null> {
  // Within the payer's cap and the seller's cap across all wallets (reserve_delivery_exposure, the migration
  // 20261128110000: both checked and added under the two rows' locks, so no concurrency passes either).
  const { rows } = await run<{ delivered_first: boolean }, ScheduleParams & { may_deliver_first: boolean; default_cap: string; default_seller_cap: string }>(
    SCHEDULE_SETTLEMENT_DELIVERING_FIRST,
    {
      id: paymentId,
      upstream_status: upstreamStatus,
      lease: leaseSeconds,
      settlement: newId("stl"),
      units,
      default_cap: (deliverFirst?.defaultCapMicros ?? 0n).toString(),
      may_deliver_first: deliverFirst !== null,
      default_seller_cap: (deliverFirst?.defaultSellerCapMicros ?? 0n).toString(),
    },
  );
  return rows[0] ? { deliveredFirst: rows[0].delivered_first } : null;
}

const SCHEDULE_SETTLEMENT_DELIVERING_FIRST = statement<ScheduleParams & { may_deliver_first: boolean; default_cap: string; default_seller_cap: string }>(
  `with p as (
     ${SCHEDULED_PAYMENT}
     returning id, locked_until, seller_id, payer, amount_micros
   ), cap as (
     select p.seller_id, p.payer, p.amount_micros, ss.unsettled_cap_micros, ss.seller_unsettled_cap_micros
     from p left join seller_settings ss on ss.seller_id = p.seller_id where :may_deliver_first::boolean and p.payer is not null
   ), e as (
     select 1 from cap
     where reserve_delivery_exposure(seller_id, payer, amount_micros, coalesce(unsettled_cap_micros, :default_cap::bigint),
       coalesce(seller_unsettled_cap_micros, :default_seller_cap::bigint))
   )
   insert into settlements (id, payment_id, status, units, claimed_until, next_attempt_at, attempts, delivered_first, created_at, updated_at)
   select :settlement, p.id, 'pending', :units, p.locked_until, now() at time zone 'UTC', 1, exists (select 1 from e), now() at time zone 'UTC', now() at time zone 'UTC' from p
   returning delivered_first`,
  "payments_schedule_settlement_delivering_first",
);

/**
 * Challenge rows written by 402s before stateless challenges (docs/challenges.md); the reconciler no longer runs it
 * (a 402 writes no row now), an operator may, once, to drop those left unpaid. Unpaid challenges carry no money. The console's funnel still counts them: one statement
 * deletes them and adds them to expired_challenge_counts (per seller, UTC day of issue, operation), so "challenges
 * issued" for any past day is the live rows plus these counts, exactly, whenever the reconciler runs.
 */
export async function deleteExpiredChallenges(before: Date): Promise<number> {
  const { rows } = await sql<{ deleted: string }>(
    `with d as (
       delete from payments where status = ${stateSql("challenged")} and expires_at < $1::timestamptz at time zone 'UTC'
       returning seller_id, operation_key, created_at, from_challenge
     ), c as (
       insert into expired_challenge_counts (seller_id, day, operation_key, count)
       select seller_id, created_at::date, operation_key, count(*) from d where from_challenge group by 1, 2, 3
       on conflict (seller_id, day, operation_key) do update set count = expired_challenge_counts.count + excluded.count
     )
     select count(*)::text as deleted from d`,
    [utc(before)],
  );
  return Number(rows[0]?.deleted ?? 0);
}

const RECORD_RECEIPT = statement<{ id: string; receipt: string }>(
  `update payments set receipt = :receipt where id = :id and receipt is null`,
  "payments_record_receipt",
);

/**
 * The signed receipt of an answer whose charge statement did not write it (a credit draw's capture, queued off the
 * response path; an answer delivered before inclusion whose charge ended pending or failed); the first one stays (a
 * replay's is sent, not kept).
 */
export async function recordReceipt(paymentId: string, receipt: string): Promise<void> {
  await run(RECORD_RECEIPT, { id: paymentId, receipt });
}

/** A payment's stored receipt at this seller: null when there is no such payment, `{ receipt: null }` when it has none. */
export async function findReceipt(sellerId: string, paymentId: string): Promise<{ status: PaymentStatus; receipt: string | null } | null> {
  return db.payment.findFirst({ where: { id: paymentId, sellerId }, select: { status: true, receipt: true } });
}
