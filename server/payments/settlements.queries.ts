// The settlement outbox's statements: a payment's settlement row claimed under a lease, its success, failure or retry
// recorded (with the charge's ledger row and the payer's exposure in the same statement), and what is due or abandoned.
// Apart from the payment rows' statements (payments.queries.ts), each under the size the style asks.
import { db, type Tx } from "../db/client";
import { bindValues, run, statement } from "../db/statement";
import type { Prisma } from "../db/generated/client";
import { grantForChargeSql } from "../billing/billing.queries";
import { newId } from "../lib/ids";
import { transition } from "./payment-state";
import type { SettlementCost } from "./payments.queries";

const FAIL = transition("verified", "failed");
const CHARGE = { settled: transition("verified", "settled"), consumed: transition("verified", "consumed") };
const DELIVER = transition("settled", "consumed");

/**
 * A settlement whose answer went out first has ended (`failed`: never to be charged): its amount leaves the payer's
 * exposure, and a failure marks the wallet as one that left an unpaid delivery (its calls wait for inclusion from now
 * on). In the statement or transaction that ends the settlement, so it happens exactly once.
 */
const exposureEndSql = (paymentSql: string, settlementSql: string, failed: boolean) =>
  `update payer_exposures e set outstanding_micros = e.outstanding_micros - ${paymentSql}.amount_micros,
     ${failed ? "unpaid_at = coalesce(e.unpaid_at, now() at time zone 'UTC'), " : ""}updated_at = now() at time zone 'UTC'
   from ${paymentSql}, ${settlementSql} where ${settlementSql}.delivered_first and e.seller_id = ${paymentSql}.seller_id and e.payer = ${paymentSql}.payer`;

const RECORD_SETTLED = statement<{
  id: string;
  transaction: string | null;
  consumed: boolean;
  ledger_id: string;
  gas_wei: string | null;
  fee_micros: string | null;
  grant_id: string;
  receipt: string | null;
}>(
  `with s as (
       update settlements set status = 'succeeded', transaction = :transaction, last_error = null, updated_at = now() at time zone 'UTC'
       where payment_id = :id and status = 'pending'
       returning payment_id, units, delivered_first
     ), p as (
       update payments set status = case when :consumed::boolean then ${CHARGE.consumed.set} else ${CHARGE.settled.set} end::payment_status, transaction = :transaction, settled_at = now() at time zone 'UTC', locked_until = null, updated_at = now() at time zone 'UTC',
         receipt = coalesce(receipt, :receipt)
       where id = :id and ${CHARGE.settled.guard()} and exists (select 1 from s)
       returning id, seller_id, meter_key, amount_micros, currency, rail, operation_key, payer
     ), x as (
       ${exposureEndSql("p", "s", false)}
     ), ${grantForChargeSql(":grant_id")}
     insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, gas_cost_wei, fee_micros, created_at)
     select :ledger_id, p.seller_id, p.id, 'charge', p.rail, p.operation_key, p.payer, p.meter_key, s.units, p.amount_micros, p.currency, :gas_wei::numeric, :fee_micros::bigint,
       now() at time zone 'UTC' from p, s`,
  "payments_record_settled",
);

const END_EXPOSURE_FAILED = statement<{ id: string }>(
  `with p as (select seller_id, payer, amount_micros from payments where id = :id), s as (select delivered_first from settlements where payment_id = :id) ${exposureEndSql("p", "s", true)}`,
);

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
 * The charge: outbox succeeded, payment settled (or straight to consumed when the paid response is going out
 * with it), ledger row, in one statement, each step guarded by the state before it. A pending outbox row always
 * belongs to a verified payment (the row is only written for one, and a payment with an outbox row is never
 * released), so all three happen or none. The ledger row copies the payment's rail, operation and payer, and carries
 * what settling cost (gas, fees) when the rail knows it. `receipt`: the signed receipt of the answer this charge goes
 * out with (../receipts), kept by the same statement (the first one stays), so a charged answer costs no statement of
 * its own for it.
 */
export async function recordSettlementSuccess(
  paymentId: string,
  transaction: string | null,
  then: "settled" | "consumed" = "settled",
  cost: SettlementCost = {},
  receipt: string | null = null,
): Promise<boolean> {
  const { rowCount } = await run(RECORD_SETTLED, {
    id: paymentId,
    transaction,
    consumed: then === "consumed",
    ledger_id: newId("led"),
    gas_wei: cost.gasWei?.toString() ?? null,
    fee_micros: cost.feeMicros?.toString() ?? null,
    grant_id: newId("grt"),
    receipt,
  });
  return rowCount === 1;
}

export async function recordSettlementFailure(paymentId: string, reason: string, transaction?: string): Promise<boolean> {
  return db.$transaction(async (tx: Tx) => {
    const s = await tx.settlement.updateMany({
      where: { paymentId, status: "pending" },
      data: { status: "failed", lastError: reason, transaction: transaction ?? null },
    });
    if (s.count !== 1) return false;
    await tx.payment.updateMany({
      where: { id: paymentId, status: { in: [...FAIL.from] } },
      data: { status: FAIL.to, failureReason: reason, lockedUntil: null },
    });
    // An answer that went out first and will never be paid for: an unpaid delivery, and its wallet waits from now on.
    await tx.$executeRawUnsafe(END_EXPOSURE_FAILED.text, ...bindValues(END_EXPOSURE_FAILED, { id: paymentId }));
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
  const res = await db.payment.updateMany({ where: { id: paymentId, status: { in: [...DELIVER.from] } }, data: { status: DELIVER.to } });
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
export async function findAbandonedPayments(limit: number): Promise<{ id: string; rail: string | null }[]> {
  return db.payment.findMany({
    where: { status: "verified", lockedUntil: { lt: new Date() }, settlement: { is: null } },
    select: { id: true, rail: true },
    take: limit,
  });
}
