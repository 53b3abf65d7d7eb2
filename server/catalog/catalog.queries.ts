// The only file of the catalog domain that touches Prisma.
import { db, listen, sql, type ListenState, type Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { recordAudit } from "../audit/audit.queries";

export type SellerRow = {
  id: string;
  slug: string;
  name: string;
  signingSecret: string | null;
  payToAddress: string | null;
  catalogVersion: number;
};

const sellerSelect = { id: true, slug: true, name: true, signingSecret: true, payToAddress: true, catalogVersion: true } as const;

/** Every request's first read (which storefront is this?): one indexed join, sent as plain SQL. */
export async function findSellerByHost(hostname: string): Promise<SellerRow | null> {
  const { rows } = await sql<SellerRow>(
    `select s.id, s.slug, s.name, s.signing_secret as "signingSecret", s.pay_to_address as "payToAddress", s.catalog_version as "catalogVersion"
     from seller_hosts h join sellers s on s.id = h.seller_id where h.hostname = $1`,
    [hostname],
  );
  return rows[0] ?? null;
}

/**
 * Every change that can alter what a request sees of a seller (its row: catalog version, secrets, payout address;
 * its hosts) is announced by a trigger on channel `catalog_changed` with the seller id, at commit, to every instance.
 */
export function listenForCatalogChanges(onChange: (sellerId: string) => void, onState: (s: ListenState) => void): () => void {
  return listen("catalog_changed", onChange, onState);
}

export async function findSellerById(id: string): Promise<SellerRow | null> {
  return db.seller.findUnique({ where: { id }, select: sellerSelect });
}

export async function loadCatalogRows(sellerId: string) {
  return db.seller.findUnique({
    where: { id: sellerId },
    select: {
      ...sellerSelect,
      hosts: { select: { hostname: true }, orderBy: { hostname: "asc" } },
      services: { orderBy: [{ sortOrder: "asc" }, { slug: "asc" }] },
      operations: { orderBy: [{ sortOrder: "asc" }, { key: "asc" }] },
      meters: { include: { price: true }, orderBy: { key: "asc" } },
      plans: { include: { meters: { include: { meter: { select: { key: true } } } } }, orderBy: [{ sortOrder: "asc" }, { slug: "asc" }] },
    },
  });
}

/**
 * Change a meter's per-request price. One transaction: the price (guarded by the seller, so another seller's
 * meter id matches nothing), the audit row, and the catalog version bump that makes every instance reload.
 */
export async function updateMeterPrice(input: { sellerId: string; meterId: string; amountMicros: bigint; actorId: string | null }) {
  return db.$transaction(async (tx: Tx) => {
    const before = await tx.price.findFirst({ where: { meterId: input.meterId, sellerId: input.sellerId }, include: { meter: { select: { key: true } } } });
    if (!before) return null;
    const after = await tx.price.update({ where: { id: before.id }, data: { amountMicros: input.amountMicros } });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "price.update",
      targetId: before.id,
      before: { meter: before.meter.key, amountMicros: before.amountMicros.toString() },
      after: { meter: before.meter.key, amountMicros: after.amountMicros.toString() },
    });
    await tx.seller.update({ where: { id: input.sellerId }, data: { catalogVersion: { increment: 1 } } });
    return { meterKey: before.meter.key, beforeMicros: before.amountMicros, afterMicros: after.amountMicros };
  });
}

/** What a seller edits on a credit plan (amounts in micro-USD). */
export type PlanFields = {
  name: string;
  description: string;
  minimumMicros: bigint;
  maximumMicros: bigint;
  cardMinimumMicros: bigint;
  creditValidityDays: number;
  /** The meters (by key) the plan's credit pays for. */
  meterKeys: string[];
};

export type PlanChange =
  | { type: "done"; planId: string }
  | { type: "not_found" }
  | { type: "unknown_meters"; keys: string[] }
  | { type: "unpriced_meters"; keys: string[] }
  | { type: "conflict"; detail: string };

/** The seller's meters by key: those that exist, the keys that do not, and those without a per-request price above zero. */
async function metersByKey(tx: Tx, sellerId: string, keys: string[]) {
  const meters = await tx.meter.findMany({
    where: { sellerId, key: { in: keys } },
    select: { id: true, key: true, price: { select: { amountMicros: true } } },
  });
  return {
    meters,
    unknown: keys.filter((k) => !meters.some((m) => m.key === k)),
    // Credit is drawn at the per-request price: a free or unpriced meter gives it nothing to pay for.
    unpriced: meters.filter((m) => !m.price || m.price.amountMicros <= 0n).map((m) => m.key),
  };
}

const planSnapshot = (
  p: {
    slug: string;
    name: string;
    description: string;
    status: string;
    minimumMicros: bigint | null;
    maximumMicros: bigint | null;
    cardMinimumMicros: bigint | null;
    creditValidityDays: number;
  },
  meters: string[],
) => ({
  slug: p.slug,
  name: p.name,
  description: p.description,
  status: p.status,
  minimumMicros: p.minimumMicros?.toString() ?? null,
  maximumMicros: p.maximumMicros?.toString() ?? null,
  cardMinimumMicros: p.cardMinimumMicros?.toString() ?? null,
  creditValidityDays: p.creditValidityDays,
  meters: [...meters].sort().join(","),
});

const bumpCatalog = (tx: Tx, sellerId: string) => tx.seller.update({ where: { id: sellerId }, data: { catalogVersion: { increment: 1 } } });

/** A seller's plans for the console, retired ones too, with the credit bought on each that is still live. */
export async function findSellerPlans(sellerId: string) {
  const [plans, credit] = await Promise.all([
    db.plan.findMany({
      where: { sellerId },
      include: { meters: { include: { meter: { select: { key: true } } } } },
      orderBy: [{ status: "asc" }, { sortOrder: "asc" }, { slug: "asc" }],
    }),
    sql<{ plan_id: string; live_micros: string; holders: number; purchased_micros: string }>(
      `select plan_id, coalesce(sum(remaining_micros) filter (where expires_at > now() at time zone 'UTC'), 0)::text as live_micros,
         count(distinct credential_id) filter (where expires_at > now() at time zone 'UTC' and remaining_micros > 0)::int as holders,
         coalesce(sum(amount_micros), 0)::text as purchased_micros
       from credit_grants where seller_id = $1 group by plan_id`,
      [sellerId],
    ),
  ]);
  return plans.map((p) => {
    const c = credit.rows.find((r) => r.plan_id === p.id);
    return {
      ...p,
      meterKeys: p.meters.map((m) => m.meter.key).sort(),
      liveCreditMicros: BigInt(c?.live_micros ?? "0"),
      holders: c?.holders ?? 0,
      purchasedMicros: BigInt(c?.purchased_micros ?? "0"),
    };
  });
}

const slugTaken = (slug: string): PlanChange => ({ type: "conflict", detail: `a plan with the slug "${slug}" exists (retired plans keep their slug)` });

/** The unique index on plans (seller_id, slug): the driver adapter names its columns in the error's meta. */
function violatesPlanSlugUnique(e: unknown): boolean {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError) || e.code !== "P2002") return false;
  // A plan's other uniques are its new id and its (plan, meter) links, from deduplicated keys: neither can collide.
  return JSON.stringify(e.meta ?? {}).includes("slug");
}

/**
 * A new credit plan, its meters, the audit row and the catalog version bump, in one transaction. Two creates of one
 * slug at once both pass the look-up; the unique index lets one commit and fails the other's insert, which rolls its
 * whole transaction back (no plan, no audit row, no bump) and answers the same conflict as the look-up.
 */
export async function insertPlan(input: { sellerId: string; actorId: string | null; id: string; slug: string; fields: PlanFields }): Promise<PlanChange> {
  try {
    return await insertPlanTx(input);
  } catch (e) {
    if (violatesPlanSlugUnique(e)) return slugTaken(input.slug);
    throw e;
  }
}

async function insertPlanTx(input: { sellerId: string; actorId: string | null; id: string; slug: string; fields: PlanFields }): Promise<PlanChange> {
  return db.$transaction(async (tx: Tx): Promise<PlanChange> => {
    const taken = await tx.plan.findUnique({ where: { sellerId_slug: { sellerId: input.sellerId, slug: input.slug } }, select: { id: true } });
    if (taken) return slugTaken(input.slug);
    const { meters, unknown, unpriced } = await metersByKey(tx, input.sellerId, input.fields.meterKeys);
    if (unknown.length) return { type: "unknown_meters", keys: unknown };
    if (unpriced.length) return { type: "unpriced_meters", keys: unpriced };
    const last = await tx.plan.aggregate({ where: { sellerId: input.sellerId }, _max: { sortOrder: true } });
    const { meterKeys: _keys, ...fields } = input.fields;
    const plan = await tx.plan.create({
      data: {
        id: input.id,
        sellerId: input.sellerId,
        slug: input.slug,
        kind: "credit",
        status: "live",
        sortOrder: (last._max.sortOrder ?? 0) + 1,
        ...fields,
        meters: { create: meters.map((m) => ({ meterId: m.id })) },
      },
    });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "plan.create",
      targetId: plan.id,
      before: null,
      after: planSnapshot(
        plan,
        meters.map((m) => m.key),
      ),
    });
    await bumpCatalog(tx, input.sellerId);
    return { type: "done", planId: plan.id };
  });
}

/**
 * A credit plan's terms changed for future purchases. Credit already bought keeps its amount and expiry; the meters it
 * covers are the plan's, so a meter may be added at any time but removed only while no credit bought on the plan is
 * live (the bought balance would silently stop covering it). A retired plan's terms are final: editing it is a conflict.
 */
export async function updatePlanRow(input: { sellerId: string; actorId: string | null; planId: string; fields: PlanFields }): Promise<PlanChange> {
  return db.$transaction(async (tx: Tx): Promise<PlanChange> => {
    // Locked: two concurrent edits of one plan apply one after the other, each with its own before and after.
    const locked = await tx.$queryRawUnsafe<{ id: string; status: string }[]>(
      `select id, status from plans where id = $1 and seller_id = $2 and kind = 'credit' for update`,
      input.planId,
      input.sellerId,
    );
    if (!locked.length) return { type: "not_found" };
    // Read under the lock: an edit queued behind a retire sees the plan retired.
    if (locked[0]!.status !== "live")
      return { type: "conflict", detail: "this plan is retired: its terms no longer change (credit bought on it keeps them); create a new plan instead" };
    const before = await tx.plan.findUniqueOrThrow({ where: { id: input.planId }, include: { meters: { include: { meter: { select: { key: true } } } } } });
    const { meters, unknown, unpriced } = await metersByKey(tx, input.sellerId, input.fields.meterKeys);
    if (unknown.length) return { type: "unknown_meters", keys: unknown };
    if (unpriced.length) return { type: "unpriced_meters", keys: unpriced };
    const meterIds = meters.map((m) => m.id);
    const removed = before.meters.filter((m) => !meterIds.includes(m.meterId));
    if (removed.length) {
      const live = await tx.creditGrant.count({ where: { planId: input.planId, remainingMicros: { gt: 0n }, expiresAt: { gt: new Date() } } });
      if (live > 0)
        return {
          type: "conflict",
          detail: `credit bought on this plan is live (${live} grant${live === 1 ? "" : "s"}) and covers ${removed.map((m) => m.meter.key).join(", ")}: add meters, or retire the plan and create a new one`,
        };
    }
    const { meterKeys: _keys, ...fields } = input.fields;
    const after = await tx.plan.update({ where: { id: input.planId }, data: fields });
    await tx.planMeter.deleteMany({ where: { planId: input.planId, meterId: { notIn: meterIds } } });
    await tx.planMeter.createMany({ data: meterIds.map((meterId) => ({ planId: input.planId, meterId })), skipDuplicates: true });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "plan.update",
      targetId: input.planId,
      before: planSnapshot(
        before,
        before.meters.map((m) => m.meter.key),
      ),
      after: planSnapshot(
        after,
        meters.map((m) => m.key),
      ),
    });
    await bumpCatalog(tx, input.sellerId);
    return { type: "done", planId: input.planId };
  });
}

/** live -> retired: no longer sold, listed or topped up; credit already bought keeps drawing until it expires. */
export async function retirePlanRow(input: { sellerId: string; actorId: string | null; planId: string }): Promise<PlanChange | { type: "already_retired" }> {
  return db.$transaction(async (tx: Tx) => {
    const plan = await tx.plan.findFirst({ where: { id: input.planId, sellerId: input.sellerId }, select: { id: true, status: true, kind: true } });
    if (!plan) return { type: "not_found" as const };
    if (plan.kind !== "credit") return { type: "conflict" as const, detail: "pay-as-you-go is how every priced call is paid; it cannot be retired" };
    const moved = await tx.plan.updateMany({ where: { id: input.planId, status: "live" }, data: { status: "retired" } });
    if (moved.count === 0) return { type: "already_retired" as const };
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "plan.retire",
      targetId: input.planId,
      before: { status: "live" },
      after: { status: "retired" },
    });
    await bumpCatalog(tx, input.sellerId);
    return { type: "done" as const, planId: input.planId };
  });
}

/** A meter's title and free included units per claimed human, with the audit row and the version bump. */
export async function updateMeterRow(input: { sellerId: string; actorId: string | null; meterId: string; title: string; includedUnits: number }) {
  return db.$transaction(async (tx: Tx) => {
    const before = await tx.meter.findFirst({ where: { id: input.meterId, sellerId: input.sellerId } });
    if (!before) return null;
    const after = await tx.meter.update({ where: { id: input.meterId }, data: { title: input.title, includedUnits: input.includedUnits } });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "meter.update",
      targetId: input.meterId,
      before: { meter: before.key, title: before.title, includedUnits: before.includedUnits },
      after: { meter: after.key, title: after.title, includedUnits: after.includedUnits },
    });
    await bumpCatalog(tx, input.sellerId);
    return { meterKey: after.key };
  });
}
