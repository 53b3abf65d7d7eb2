// The billing domain's statements on plan purchases, credit grants and included units. A purchase is credited in the
// statement that records its charge (`grantForChargeSql`, used by every rail's charge statement), and a refund takes
// its credit back in the refund's transaction. The credits rail's own statements (draws, releases, captures) are in
// server/payments/rails/credits/credits.queries.ts; the console's money per customer in customers.queries.ts.
import { db, type Tx } from "../db/client";

/** A purchase with the rail and transaction of the payment that paid it (a replay answers what the purchase answered). */
export async function findPlanPurchase(paymentId: string) {
  return db.planPurchase.findUnique({ where: { paymentId }, include: { payment: { select: { rail: true, transaction: true } } } });
}

export type GrantRow = {
  id: string;
  planId: string;
  credentialId: string;
  sourcePaymentId: string;
  amountMicros: bigint;
  remainingMicros: bigint;
  expiresAt: Date;
  createdAt: Date;
};

const grantSelect = {
  id: true,
  planId: true,
  credentialId: true,
  sourcePaymentId: true,
  amountMicros: true,
  remainingMicros: true,
  expiresAt: true,
  createdAt: true,
} as const;

export async function findGrantByPayment(paymentId: string): Promise<GrantRow | null> {
  return db.creditGrant.findUnique({ where: { sourcePaymentId: paymentId }, select: grantSelect });
}

export async function findIncludedUsage(sellerId: string, humanId: string): Promise<{ meterKey: string; used: number }[]> {
  return db.includedUnitUsage.findMany({ where: { sellerId, humanId }, select: { meterKey: true, used: true } });
}

export type GrantWithPlan = GrantRow & {
  plan: { id: string; slug: string; name: string; status: string; meters: string[] };
  /** Of `remainingMicros`, what instances hold in leases now (server/payments/rails/credits, "Leased credit"). */
  heldMicros?: bigint;
};

/**
 * Live grants for entitlements, with their plan (retired plans included: credit bought on them keeps working). The
 * remaining credit counts what instances hold in leases and have not recorded as spent (`heldMicros`): not spent yet.
 */
export async function findGrantsWithPlans(sellerId: string, credentialIds: string[]): Promise<GrantWithPlan[]> {
  const rows = await db.creditGrant.findMany({
    where: { sellerId, credentialId: { in: credentialIds }, expiresAt: { gt: new Date() } },
    select: { ...grantSelect, plan: { select: { id: true, slug: true, name: true, status: true, meters: { select: { meter: { select: { key: true } } } } } } },
    orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }],
  });
  const leases = rows.length
    ? await db.creditLease.groupBy({
        by: ["grantId"],
        where: { grantId: { in: rows.map((r) => r.id) }, returnedAt: null },
        _sum: { amountMicros: true, spentMicros: true },
      })
    : [];
  const held = new Map(leases.map((l) => [l.grantId, (l._sum.amountMicros ?? 0n) - (l._sum.spentMicros ?? 0n)]));
  return rows.map((r) => ({
    ...r,
    remainingMicros: r.remainingMicros + (held.get(r.id) ?? 0n),
    heldMicros: held.get(r.id) ?? 0n,
    plan: { id: r.plan.id, slug: r.plan.slug, name: r.plan.name, status: r.plan.status, meters: r.plan.meters.map((m) => m.meter.key).sort() },
  }));
}

/**
 * The CTE that credits a plan purchase in the statement that records its charge (every rail's charge statement uses
 * it): `p` is the CTE of the payment just charged, `idParam` the placeholder of the new grant's id. Paid once,
 * credited once: the grant is unique per source payment. The plan row is read FOR SHARE: a plan change holds it FOR
 * UPDATE, so a meter removal racing this purchase waits for the grant and then sees it (and refuses), rather than
 * passing its "no live credit" check just before the grant commits and stranding the new credit.
 */
export function grantForChargeSql(idParam: string): string {
  return `grant_made as (
       insert into credit_grants (id, seller_id, plan_id, credential_id, source_payment_id, amount_micros, remaining_micros, expires_at, created_at)
       select ${idParam}, pp.seller_id, pp.plan_id, pp.credential_id, pp.payment_id, pp.amount_micros, pp.amount_micros,
         (now() at time zone 'UTC') + make_interval(days => pl.credit_validity_days), now() at time zone 'UTC'
       from p join plan_purchases pp on pp.payment_id = p.id join plans pl on pl.id = pp.plan_id
       for share of pl
       on conflict (source_payment_id) do nothing
       returning 1
     )`;
}

/**
 * A refunded plan purchase takes its credit back, in the refund's transaction: the grant ends now and holds nothing.
 * Ending it (rather than only zeroing it) keeps a reservation released later from bringing spendable credit back.
 */
export async function revokePurchasedCredit(tx: Tx, paymentId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `update credit_grants set remaining_micros = 0, expires_at = least(expires_at, now() at time zone 'UTC') where source_payment_id = $1`,
    paymentId,
  );
}
