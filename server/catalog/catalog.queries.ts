// The only file of the catalog domain that touches Prisma.
import { db, listen, sql, type ListenState, type Tx } from "../db/client";
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
