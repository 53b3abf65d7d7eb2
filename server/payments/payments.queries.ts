// The payments domain's statements on the payments, settlements and ledger tables for the paid path. Every state
// change is guarded by the state before it, and both come from a transition of payment-state.ts (the guard and the
// new state of each statement below), so two racers (instances, the reconciler) cannot both move a payment and no
// statement makes a move the table does not have; a money movement (settled + ledger + outbox) is one statement.
// The paid path's statements are plain SQL on the shared pool (`sql`): one round trip each.
import { db, sql, UNIQUE_VIOLATION, type Tx } from "../db/client";
import type { Prisma, PaymentStatus as DbPaymentStatus } from "../db/generated/client";
import { newId } from "../lib/ids";
import { challengedRow, challengeTermsOf, type NewChallenge } from "./challenges.queries";
import { initialStateSql, stateSql, transition, type PaymentStatus } from "./payment-state";

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

const LOCK = transition("challenged", "verified");
/** A row born from a signed challenge id (docs/challenges.md): its id carries a '.', which no ordinary id (lib/ids.ts) does. */
export const SIGNED_ID = "strpos(id, '.') > 0";
const UNLOCK = transition("verified", "challenged");
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

/** A payment's refund ledger row (amount, the on-chain transfer, when it was recorded), if it was refunded. */
export async function findRefundEntry(paymentId: string) {
  return db.ledgerEntry.findUnique({
    where: { paymentId_kind: { paymentId, kind: "refund" } },
    select: { amountMicros: true, transaction: true, logIndex: true, createdAt: true },
  });
}

/**
 * What a rail writes when it locks a payment. `network` and `asset`: where the rail settles and in what (a wallet rail's
 * chain and token); left as they were when not given (off-chain rails: none).
 */
export type Lock = {
  rail: string;
  lockKey: string;
  payer: string | null;
  railData: unknown;
  leaseSeconds: number;
  network?: string | null;
  asset?: string | null;
  /** The transport of the call this proof pays: the one delivered (left as the challenge's when not given). */
  transport?: "http" | "mcp";
  /** The seller's payout address of the paying call: written when the lock writes the row (a signed challenge's). */
  payTo?: string | null;
};
export type LockResult = "locked" | "not_lockable" | "lock_taken";

function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === UNIQUE_VIOLATION;
}

/**
 * challenged -> verified for one rail, taking the lock (unique lock_key), in one statement: the payment must still be
 * an unexpired challenge of this seller. Two proofs for one challenge, or one proof twice, cannot both lock. The row
 * takes the paying call's transport: a challenge issued over HTTP may be paid by an MCP tool call (or the reverse), and
 * the payment is the call that delivered.
 * A signed challenge id (docs/challenges.md) has no row yet: the statement inserts it from the signed terms, already
 * verified (with its plan purchase, if it buys one); a second proof for it finds the row (unique id) and takes the
 * guarded update, as a challenge row written by a 402 before stateless challenges does.
 */
export async function lockChallengedPayment(sellerId: string, id: string, lock: Lock): Promise<LockResult> {
  const signed = challengeTermsOf(sellerId, id);
  if (signed?.expired) return "not_lockable";
  const lockParams = [
    lock.rail,
    lock.lockKey,
    lock.payer,
    JSON.stringify(lock.railData),
    lock.leaseSeconds,
    lock.network ?? null,
    lock.asset ?? null,
    lock.transport ?? null,
  ];
  try {
    if (signed) {
      const t = signed.terms;
      const { rows } = await sql<{ id: string }>(
        `with p as (
           insert into payments (id, seller_id, status, from_challenge, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to, credential_id,
             expires_at, created_at, updated_at, transport, rail, lock_key, payer, rail_data, verified_at, locked_until)
           values ($1, $2, ${LOCK.set}, true, $11, $12, $13, $14, $15, $16, $8, $9, $17, $18, to_timestamp($19) at time zone 'UTC', now() at time zone 'UTC',
             now() at time zone 'UTC', coalesce($10, $22), $3, $4, $5, $6::jsonb, now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => $7))
           on conflict (id) do update set status = ${LOCK.set}, rail = excluded.rail, lock_key = excluded.lock_key, payer = excluded.payer, rail_data = excluded.rail_data,
             network = coalesce($8, payments.network), asset = coalesce($9, payments.asset), transport = coalesce($10, payments.transport),
             verified_at = excluded.verified_at, locked_until = excluded.locked_until, updated_at = excluded.updated_at
           where payments.seller_id = $2 and ${LOCK.guard("payments.status")} and payments.expires_at > now() at time zone 'UTC'
           returning id
         ), pp as (
           insert into plan_purchases (payment_id, seller_id, plan_id, credential_id, kind, amount_micros, created_at)
           select p.id, $2, $20, $18, $21, $16, now() at time zone 'UTC' from p where $20::text is not null
           on conflict (payment_id) do nothing
         )
         select id from p`,
        [
          id,
          sellerId,
          ...lockParams,
          t.method,
          t.path,
          t.query,
          t.operationKey,
          t.meterKey,
          t.amountMicros,
          lock.payTo ?? null,
          t.credentialId,
          t.expiresAt,
          t.purchase?.planId ?? null,
          t.purchase?.kind ?? "purchase",
          t.transport ?? "http",
        ],
        "payments_lock_signed_challenge",
      );
      return rows.length === 1 ? "locked" : "not_lockable";
    }
    const { rowCount } = await sql(
      `update payments set status = ${LOCK.set}, rail = $3, lock_key = $4, payer = $5, rail_data = $6::jsonb, network = coalesce($8, network), asset = coalesce($9, asset), transport = coalesce($10, transport),
         verified_at = now() at time zone 'UTC', locked_until = (now() at time zone 'UTC') + make_interval(secs => $7), updated_at = now() at time zone 'UTC'
       where id = $1 and seller_id = $2 and ${LOCK.guard()} and expires_at > now() at time zone 'UTC'`,
      [id, sellerId, ...lockParams],
      "payments_lock_challenged",
    );
    return rowCount === 1 ? "locked" : "not_lockable";
  } catch (e) {
    if (isUniqueViolation(e)) return "lock_taken";
    throw e;
  }
}

/** A proof that answers no challenge of ours (x402 v1 clients): the payment row is born verified, holding the lock. */
export async function insertHeldPayment(
  p: Omit<NewChallenge, "id" | "network" | "asset"> & Lock,
): Promise<{ result: "locked"; id: string } | { result: "lock_taken" }> {
  const id = newId("pay");
  try {
    await sql(
      `insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to, payer, lock_key, rail_data,
         expires_at, verified_at, locked_until, created_at, updated_at, transport)
       values ($1, $2, ${initialStateSql("verified")}, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::timestamptz at time zone 'UTC', now() at time zone 'UTC',
         (now() at time zone 'UTC') + make_interval(secs => $17), now() at time zone 'UTC', now() at time zone 'UTC', $18)`,
      [
        id,
        p.sellerId,
        p.rail,
        p.method,
        p.path,
        p.query,
        p.operationKey,
        p.meterKey,
        p.amountMicros,
        p.network ?? null,
        p.asset ?? null,
        p.payTo,
        p.payer,
        p.lockKey,
        JSON.stringify(p.railData),
        utc(p.expiresAt),
        p.leaseSeconds,
        p.transport ?? "http",
      ],
      "payments_insert_held",
    );
    return { result: "locked", id };
  } catch (e) {
    if (isUniqueViolation(e)) return { result: "lock_taken" };
    throw e;
  }
}

/**
 * Undo a lock taken while its proof was still being verified, once the proof failed: a challenge goes back to
 * `challenged` (the agent may answer it with another proof, or this one once it can pay), a row born held (x402 v1)
 * is deleted (it never was a payment), and so is one the lock wrote for a signed challenge id (the id answers
 * `challenged` again by itself). Guarded by the lock key and the state, so only the lock this request took.
 */
export async function unlockUnverifiedPayment(id: string, lockKey: string): Promise<void> {
  await sql(
    `with born as (
       delete from payments where id = $1 and lock_key = $2 and status = ${stateSql("verified")} and (not from_challenge or ${SIGNED_ID})
         and not exists (select 1 from settlements s where s.payment_id = payments.id)
     )
     update payments set status = ${UNLOCK.set}, rail = null, lock_key = null, payer = null, rail_data = null, verified_at = null, locked_until = null,
       updated_at = now() at time zone 'UTC'
     where id = $1 and lock_key = $2 and ${UNLOCK.guard()} and from_challenge and not ${SIGNED_ID} and not exists (select 1 from settlements s where s.payment_id = payments.id)`,
    [id, lockKey],
    "payments_unlock_unverified",
  );
}

/** verified -> released: nothing is charged and the proof is never spendable here again. */
export async function releasePayment(id: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const { rowCount } = await sql(
    `update payments set status = ${RELEASE.set}, failure_reason = $2, upstream_status = $3, locked_until = null, updated_at = now() at time zone 'UTC'
     where id = $1 and ${RELEASE.guard()} and not exists (select 1 from settlements s where s.payment_id = payments.id)`,
    [id, reason, upstreamStatus ?? null],
    "payments_release",
  );
  return rowCount === 1;
}

/**
 * The decision to charge, made durable before the rail is asked to charge: the outbox row, leased to this
 * instance. False if the payment is no longer verified (e.g. the reconciler released it meanwhile).
 */
export async function scheduleSettlement(paymentId: string, upstreamStatus: number, units: number, leaseSeconds: number): Promise<boolean> {
  // One statement (atomic on its own): the outbox row exists only if the payment was still verified.
  // Timestamps are UTC, as Prisma writes them into these `timestamp(3)` columns.
  const { rowCount } = await sql(
    `with p as (
       update payments set upstream_status = $2, locked_until = (now() at time zone 'UTC') + make_interval(secs => $3), updated_at = now() at time zone 'UTC'
       where id = $1 and status = ${stateSql("verified")}
       returning id, locked_until
     )
     insert into settlements (id, payment_id, status, units, claimed_until, next_attempt_at, attempts, created_at, updated_at)
     select $4, p.id, 'pending', $5, p.locked_until, now() at time zone 'UTC', 1, now() at time zone 'UTC', now() at time zone 'UTC' from p`,
    [paymentId, upstreamStatus, leaseSeconds, newId("stl"), units],
    "payments_schedule_settlement",
  );
  return rowCount === 1;
}

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
  const { rows } = await sql<{ delivered_first: boolean }>(
    `with p as (
       update payments set upstream_status = $2, locked_until = (now() at time zone 'UTC') + make_interval(secs => $3), updated_at = now() at time zone 'UTC'
       where id = $1 and status = ${stateSql("verified")}
       returning id, locked_until, seller_id, payer, amount_micros
     ), cap as (
       select p.seller_id, p.payer, p.amount_micros, ss.unsettled_cap_micros, ss.seller_unsettled_cap_micros
       from p left join seller_settings ss on ss.seller_id = p.seller_id where $7::boolean and p.payer is not null
     ), e as (
       select 1 from cap
       where reserve_delivery_exposure(seller_id, payer, amount_micros, coalesce(unsettled_cap_micros, $6::bigint), coalesce(seller_unsettled_cap_micros, $8::bigint))
     )
     insert into settlements (id, payment_id, status, units, claimed_until, next_attempt_at, attempts, delivered_first, created_at, updated_at)
     select $4, p.id, 'pending', $5, p.locked_until, now() at time zone 'UTC', 1, exists (select 1 from e), now() at time zone 'UTC', now() at time zone 'UTC' from p
     returning delivered_first`,
    [
      paymentId,
      upstreamStatus,
      leaseSeconds,
      newId("stl"),
      units,
      (deliverFirst?.defaultCapMicros ?? 0n).toString(),
      deliverFirst !== null,
      (deliverFirst?.defaultSellerCapMicros ?? 0n).toString(),
    ],
    "payments_schedule_settlement_delivering_first",
  );
  return rows[0] ? { deliveredFirst: rows[0].delivered_first } : null;
}

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

/**
 * The signed receipt of an answer whose charge statement did not write it (a credit draw's capture, queued off the
 * response path; an answer delivered before inclusion whose charge ended pending or failed); the first one stays (a
 * replay's is sent, not kept).
 */
export async function recordReceipt(paymentId: string, receipt: string): Promise<void> {
  await sql(`update payments set receipt = $2 where id = $1 and receipt is null`, [paymentId, receipt], "payments_record_receipt");
}

/** A payment's stored receipt at this seller: null when there is no such payment, `{ receipt: null }` when it has none. */
export async function findReceipt(sellerId: string, paymentId: string): Promise<{ status: PaymentStatus; receipt: string | null } | null> {
  return db.payment.findFirst({ where: { id: paymentId, sellerId }, select: { status: true, receipt: true } });
}
