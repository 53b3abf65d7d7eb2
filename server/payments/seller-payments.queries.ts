// The seller console's reads of payments and the ledger. Read-only; every query is scoped by the seller id
// the caller took from the session.
import { db } from "../db/client";
import type { PaymentStatus, Prisma } from "../db/generated/client";

/** Keyset position: the last row of the previous page. (createdAt, id) is unique, so no row is skipped or repeated. */
export type PaymentCursor = { createdAt: Date; id: string };

// An explicit select: `proof` is a bearer instrument until settled and never leaves the payments domain.
const PAYMENT_LIST_SELECT = {
  id: true,
  createdAt: true,
  method: true,
  path: true,
  query: true,
  operationKey: true,
  amountMicros: true,
  rail: true,
  payer: true,
  status: true,
  transaction: true,
  failureReason: true,
  settlement: { select: { status: true } },
  // The refund's on-chain transaction, once one is recorded (at most one refund row per payment).
  ledgerEntries: { where: { kind: "refund" }, select: { transaction: true } },
  // Card payments: what a seller used to Stripe looks for (never a card number: there is none to read).
  card: {
    select: { processor: true, flow: true, cardBrand: true, cardLast4: true, processorPaymentId: true, refundStatus: true, refundCause: true, refundId: true },
  },
} as const satisfies Prisma.PaymentSelect;

export type ConsolePaymentRow = Prisma.PaymentGetPayload<{ select: typeof PAYMENT_LIST_SELECT }>;

/**
 * A seller's payments, newest first, `take` of them after `cursor`. Served by the index
 * payments (seller_id, created_at desc); ties on created_at are broken by id.
 */
export async function findSellerPayments(
  sellerId: string,
  q: { cursor: PaymentCursor | null; take: number; includeChallenged: boolean },
): Promise<ConsolePaymentRow[]> {
  const where: Prisma.PaymentWhereInput = {
    sellerId,
    ...(q.includeChallenged ? {} : { status: { not: "challenged" } }),
    ...(q.cursor ? { OR: [{ createdAt: { lt: q.cursor.createdAt } }, { createdAt: q.cursor.createdAt, id: { lt: q.cursor.id } }] } : {}),
  };
  return db.payment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: q.take, select: PAYMENT_LIST_SELECT });
}

/** Count and amount of a seller's payments in each state (one aggregate over the seller's rows). */
export async function countSellerPaymentsByStatus(sellerId: string): Promise<{ status: PaymentStatus; count: number; amountMicros: bigint }[]> {
  const groups = await db.payment.groupBy({ by: ["status"], where: { sellerId }, _count: { _all: true }, _sum: { amountMicros: true } });
  return groups.map((g) => ({ status: g.status, count: g._count._all, amountMicros: g._sum.amountMicros ?? 0n }));
}

/** Sum of a seller's ledger entries by kind (charge, refund). */
export async function sumSellerLedger(sellerId: string): Promise<{ kind: string; entries: number; amountMicros: bigint }[]> {
  const groups = await db.ledgerEntry.groupBy({ by: ["kind"], where: { sellerId }, _count: { _all: true }, _sum: { amountMicros: true } });
  return groups.map((g) => ({ kind: g.kind, entries: g._count._all, amountMicros: g._sum.amountMicros ?? 0n }));
}
