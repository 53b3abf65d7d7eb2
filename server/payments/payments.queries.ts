// The only file of the payments domain that touches Prisma. Every state change is guarded by the current
// state (`where: { id, status: "verified" }`), so two racers (instances, the reconciler) cannot both move a
// payment; a money movement (settled + ledger + outbox) is one transaction.
import { db, type Tx } from "../db/client";
import { Prisma, type PaymentStatus } from "../db/generated/client";
import { newId } from "../lib/ids";
import type { PricedRequest } from "./priced-request";

export type PaymentRow = Prisma.PaymentGetPayload<object>;

export type NewChallenge = PricedRequest & { id: string; network: string; asset: string; expiresAt: Date };

export async function createChallengedPayment(p: NewChallenge): Promise<void> {
  await db.payment.create({ data: { ...p, status: "challenged" } });
}

export async function findPayment(sellerId: string, id: string): Promise<PaymentRow | null> {
  return db.payment.findFirst({ where: { id, sellerId } });
}

/** A payment's refund ledger row (amount, the on-chain transfer, when it was recorded), if it was refunded. */
export async function findRefundEntry(paymentId: string) {
  return db.ledgerEntry.findUnique({
    where: { paymentId_kind: { paymentId, kind: "refund" } },
    select: { amountMicros: true, transaction: true, logIndex: true, createdAt: true },
  });
}

export async function findPaymentByAuthorization(asset: string, payer: string, nonce: string): Promise<PaymentRow | null> {
  return db.payment.findUnique({ where: { asset_payer_nonce: { asset, payer, nonce } } });
}

export type LockInput = { payer: string; nonce: string; proof: Prisma.InputJsonValue; x402Version: number; lockedUntil: Date };
export type LockResult = "locked" | "not_lockable" | "authorization_taken";

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

/** challenged -> verified, taking the authorization lock (unique asset+payer+nonce). */
export async function lockChallengedPayment(sellerId: string, id: string, lock: LockInput): Promise<LockResult> {
  try {
    const res = await db.payment.updateMany({
      where: { id, sellerId, status: "challenged", expiresAt: { gt: new Date() } },
      data: { status: "verified", ...lock, verifiedAt: new Date() },
    });
    return res.count === 1 ? "locked" : "not_lockable";
  } catch (e) {
    if (isUniqueViolation(e)) return "authorization_taken";
    throw e;
  }
}

/** A proof without a challenge echo (x402 v1): the payment row is born verified, holding the lock. */
export async function insertVerifiedPayment(
  p: Omit<NewChallenge, "id"> & LockInput,
): Promise<{ result: "locked"; id: string } | { result: "authorization_taken" }> {
  const id = newId("pay");
  try {
    await db.payment.create({ data: { id, ...p, status: "verified", verifiedAt: new Date() } });
    return { result: "locked", id };
  } catch (e) {
    if (isUniqueViolation(e)) return { result: "authorization_taken" };
    throw e;
  }
}

/** verified -> released: nothing is charged and the authorization is never spendable here again. */
export async function releasePayment(id: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const res = await db.payment.updateMany({
    where: { id, status: "verified", settlement: { is: null } },
    data: { status: "released", failureReason: reason, upstreamStatus: upstreamStatus ?? null, lockedUntil: null },
  });
  return res.count === 1;
}

/**
 * The decision to charge, made durable before the chain is touched: the outbox row, leased to this instance.
 * Fails (false) if the payment is no longer verified (e.g. the reconciler released it meanwhile).
 */
export async function scheduleSettlement(paymentId: string, upstreamStatus: number, units: number, leaseSeconds: number): Promise<boolean> {
  // One statement (atomic on its own): the outbox row exists only if the payment was still verified.
  // Timestamps are UTC, as Prisma writes them into these `timestamp(3)` columns.
  const rows = await db.$queryRaw<{ id: string }[]>`
    with p as (
      update payments set upstream_status = ${upstreamStatus},
        locked_until = (now() at time zone 'UTC') + make_interval(secs => ${leaseSeconds}),
        updated_at = now() at time zone 'UTC'
      where id = ${paymentId} and status = 'verified'
      returning id, locked_until
    )
    insert into settlements (id, payment_id, status, units, claimed_until, next_attempt_at, attempts, created_at, updated_at)
    select ${newId("stl")}, p.id, 'pending', ${units}, p.locked_until, now() at time zone 'UTC', 0, now() at time zone 'UTC', now() at time zone 'UTC' from p
    returning id`;
  return rows.length === 1;
}

export type SettlementRow = Prisma.SettlementGetPayload<{ include: { payment: true } }>;

export async function findSettlement(paymentId: string): Promise<SettlementRow | null> {
  return db.settlement.findUnique({ where: { paymentId }, include: { payment: true } });
}

/** Take over an outbox row whose lease ran out (the instance that wrote it crashed or gave up). */
export async function claimSettlement(paymentId: string, leaseUntil: Date): Promise<boolean> {
  const res = await db.settlement.updateMany({
    where: { paymentId, status: "pending", claimedUntil: { lt: new Date() }, nextAttemptAt: { lte: new Date() } },
    data: { claimedUntil: leaseUntil, attempts: { increment: 1 } },
  });
  return res.count === 1;
}

/**
 * The charge: outbox succeeded, payment settled, ledger row, in one statement (atomic on its own), each step
 * guarded by the state before it. A pending outbox row always belongs to a verified payment (the row is only
 * written for one, and a payment with an outbox row is never released), so all three happen or none.
 */
export async function recordSettlementSuccess(paymentId: string, transaction: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    with s as (
      update settlements set status = 'succeeded', transaction = ${transaction}, last_error = null, updated_at = now() at time zone 'UTC'
      where payment_id = ${paymentId} and status = 'pending'
      returning payment_id, units
    ), p as (
      update payments set status = 'settled', transaction = ${transaction}, settled_at = now() at time zone 'UTC', locked_until = null, updated_at = now() at time zone 'UTC'
      where id = ${paymentId} and status = 'verified' and exists (select 1 from s)
      returning id, seller_id, meter_key, amount_micros, currency
    )
    insert into ledger_entries (id, seller_id, payment_id, kind, meter_key, units, amount_micros, currency, created_at)
    select ${newId("led")}, p.seller_id, p.id, 'charge', p.meter_key, s.units, p.amount_micros, p.currency, now() at time zone 'UTC' from p, s
    returning id`;
  return rows.length === 1;
}

export async function recordSettlementFailure(paymentId: string, reason: string, transaction?: string): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const s = await tx.settlement.updateMany({
      where: { paymentId, status: "pending" },
      data: { status: "failed", lastError: reason, transaction: transaction ?? null },
    });
    if (s.count !== 1) return false;
    await tx.payment.updateMany({ where: { id: paymentId, status: "verified" }, data: { status: "failed", failureReason: reason, lockedUntil: null } });
    return true;
  });
}

/** Transient failure: leave it pending, retry after `nextAttemptAt` (exponential backoff by the caller). */
export async function recordSettlementRetry(paymentId: string, error: string, nextAttemptAt: Date): Promise<void> {
  await db.settlement.updateMany({
    where: { paymentId, status: "pending" },
    data: { lastError: error.slice(0, 500), nextAttemptAt, claimedUntil: new Date(0) },
  });
}

/** settled -> consumed: the paid response went out to the caller. */
export async function markConsumed(paymentId: string): Promise<boolean> {
  const res = await db.payment.updateMany({ where: { id: paymentId, status: "settled" }, data: { status: "consumed" } });
  return res.count === 1;
}

export async function findDueSettlements(limit: number): Promise<string[]> {
  const rows = await db.settlement.findMany({
    where: { status: "pending", claimedUntil: { lt: new Date() }, nextAttemptAt: { lte: new Date() } },
    select: { paymentId: true },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
  });
  return rows.map((r) => r.paymentId);
}

/** Verified payments whose serving instance let its lease run out without deciding to charge. */
export async function findAbandonedPayments(limit: number): Promise<string[]> {
  const rows = await db.payment.findMany({
    where: { status: "verified", lockedUntil: { lt: new Date() }, settlement: { is: null } },
    select: { id: true },
    take: limit,
  });
  return rows.map((r) => r.id);
}

/** Unpaid challenges carry no money; old ones are dropped. */
export async function deleteExpiredChallenges(before: Date): Promise<number> {
  const res = await db.payment.deleteMany({ where: { status: "challenged", expiresAt: { lt: before } } });
  return res.count;
}

export type { PaymentStatus };
