// The seller's console settings (seller_settings): read, and changed with their audit row in one transaction.
import { recordAudit } from "../audit/audit.queries";
import { db, type Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";

export type SettingsRow = { explorerTxUrls: Record<string, string>; ethUsdMicros: bigint | null; ethUsdSetAt: Date | null; updatedAt: Date | null };

function toRow(r: { explorerTxUrls: Prisma.JsonValue; ethUsdMicros: bigint | null; ethUsdSetAt: Date | null; updatedAt: Date } | null): SettingsRow {
  const urls =
    r?.explorerTxUrls && typeof r.explorerTxUrls === "object" && !Array.isArray(r.explorerTxUrls) ? (r.explorerTxUrls as Record<string, string>) : {};
  return { explorerTxUrls: urls, ethUsdMicros: r?.ethUsdMicros ?? null, ethUsdSetAt: r?.ethUsdSetAt ?? null, updatedAt: r?.updatedAt ?? null };
}

export async function findSellerSettings(sellerId: string): Promise<SettingsRow> {
  return toRow(await db.sellerSettings.findUnique({ where: { sellerId } }));
}

/**
 * Replace the settings (created on first save), with a settings.update audit row of what changed, all or nothing. The
 * row is locked first so two console sessions saving at once each audit the state they replaced.
 */
export async function saveSellerSettings(input: {
  sellerId: string;
  actorId: string | null;
  explorerTxUrls: Record<string, string>;
  ethUsdMicros: bigint | null;
  describe: (row: SettingsRow) => Prisma.InputJsonValue;
}): Promise<SettingsRow> {
  return db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`insert into seller_settings (seller_id, updated_at) values (${input.sellerId}, now() at time zone 'UTC') on conflict (seller_id) do nothing`;
    await tx.$queryRaw`select seller_id from seller_settings where seller_id = ${input.sellerId} for update`;
    const before = toRow(await tx.sellerSettings.findUnique({ where: { sellerId: input.sellerId } }));
    const rateChanged = before.ethUsdMicros !== input.ethUsdMicros;
    const saved = await tx.sellerSettings.update({
      where: { sellerId: input.sellerId },
      data: {
        explorerTxUrls: input.explorerTxUrls,
        ethUsdMicros: input.ethUsdMicros,
        ...(rateChanged ? { ethUsdSetAt: input.ethUsdMicros === null ? null : new Date() } : {}),
      },
    });
    const after = toRow(saved);
    const b = input.describe(before);
    const a = input.describe(after);
    if (JSON.stringify(b) !== JSON.stringify(a))
      await recordAudit(tx, { sellerId: input.sellerId, actorId: input.actorId, action: "settings.update", targetId: input.sellerId, before: b, after: a });
    return after;
  });
}

/** The seller's caps on value delivered but not yet settled, per wallet and across wallets (null: the default). */
export async function findUnsettledCaps(sellerId: string): Promise<{ wallet: bigint | null; seller: bigint | null }> {
  const r = await db.sellerSettings.findUnique({ where: { sellerId }, select: { unsettledCapMicros: true, sellerUnsettledCapMicros: true } });
  return { wallet: r?.unsettledCapMicros ?? null, seller: r?.sellerUnsettledCapMicros ?? null };
}

/** wallet: per payer wallet (unsettled_cap_micros); seller: across all wallets (seller_unsettled_cap_micros). */
export type UnsettledCapScope = "wallet" | "seller";

/** Set a cap (null: back to the default), with a settings.update audit row when it changed, all or nothing (the row locked first). */
export async function saveUnsettledCap(input: {
  sellerId: string;
  actorId: string | null;
  micros: bigint | null;
  scope?: UnsettledCapScope;
}): Promise<bigint | null> {
  const seller = input.scope === "seller";
  const field = seller ? "sellerUnsettledCapMicros" : "unsettledCapMicros";
  return db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`insert into seller_settings (seller_id, updated_at) values (${input.sellerId}, now() at time zone 'UTC') on conflict (seller_id) do nothing`;
    const [before] = await tx.$queryRaw<
      { wallet: bigint | null; seller: bigint | null }[]
    >`select unsettled_cap_micros as wallet, seller_unsettled_cap_micros as seller from seller_settings where seller_id = ${input.sellerId} for update`;
    const was = (seller ? before?.seller : before?.wallet) ?? null;
    await tx.sellerSettings.update({ where: { sellerId: input.sellerId }, data: { [field]: input.micros } });
    if (was !== input.micros)
      await recordAudit(tx, {
        sellerId: input.sellerId,
        actorId: input.actorId,
        action: "settings.update",
        targetId: input.sellerId,
        before: { [field]: was?.toString() ?? null },
        after: { [field]: input.micros?.toString() ?? null },
      });
    return input.micros;
  });
}

/** What a payer reads before paying: the seller's contact, terms and refund policy (nulls: not given). */
export type MerchantInfoRow = { contactEmail: string | null; termsText: string | null; refundPolicy: string | null };

export async function findMerchantInfo(sellerId: string): Promise<MerchantInfoRow> {
  const r = await db.sellerSettings.findUnique({ where: { sellerId }, select: { contactEmail: true, termsText: true, refundPolicy: true } });
  return { contactEmail: r?.contactEmail ?? null, termsText: r?.termsText ?? null, refundPolicy: r?.refundPolicy ?? null };
}

/** Replace the merchant information, with a settings.update audit row of what changed, all or nothing (the row locked first). */
export async function saveMerchantInfo(input: { sellerId: string; actorId: string | null; info: MerchantInfoRow }): Promise<MerchantInfoRow> {
  return db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`insert into seller_settings (seller_id, updated_at) values (${input.sellerId}, now() at time zone 'UTC') on conflict (seller_id) do nothing`;
    const [before] = await tx.$queryRaw<
      MerchantInfoRow[]
    >`select contact_email as "contactEmail", terms_text as "termsText", refund_policy as "refundPolicy" from seller_settings where seller_id = ${input.sellerId} for update`;
    await tx.sellerSettings.update({ where: { sellerId: input.sellerId }, data: input.info });
    const changed = (Object.keys(input.info) as (keyof MerchantInfoRow)[]).filter((k) => before?.[k] !== input.info[k]);
    if (changed.length)
      await recordAudit(tx, {
        sellerId: input.sellerId,
        actorId: input.actorId,
        action: "settings.update",
        targetId: input.sellerId,
        before: Object.fromEntries(changed.map((k) => [k, before?.[k] ?? null])),
        after: Object.fromEntries(changed.map((k) => [k, input.info[k]])),
      });
    return input.info;
  });
}

/** The seller's bounds on leased plan credit (null: the deployment's default; 0: no leases). */
export type CreditLeaseRow = { calls: number | null; ms: number | null };

export async function findCreditLease(sellerId: string): Promise<CreditLeaseRow> {
  const r = await db.sellerSettings.findUnique({ where: { sellerId }, select: { creditLeaseCalls: true, creditLeaseMs: true } });
  return { calls: r?.creditLeaseCalls ?? null, ms: r?.creditLeaseMs ?? null };
}

/**
 * Set the lease bounds, with a settings.update audit row of what changed, all or nothing (the row locked first). The
 * row is written only when a bound changed: its trigger tells every instance to drop the seller's leases.
 */
export async function saveCreditLease(input: { sellerId: string; actorId: string | null; lease: CreditLeaseRow }): Promise<CreditLeaseRow> {
  return db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`insert into seller_settings (seller_id, updated_at) values (${input.sellerId}, now() at time zone 'UTC') on conflict (seller_id) do nothing`;
    const [before] = await tx.$queryRaw<
      CreditLeaseRow[]
    >`select credit_lease_calls as calls, credit_lease_ms as ms from seller_settings where seller_id = ${input.sellerId} for update`;
    const fields = { calls: "creditLeaseCalls", ms: "creditLeaseMs" } as const;
    const changed = (Object.keys(fields) as (keyof CreditLeaseRow)[]).filter((k) => (before?.[k] ?? null) !== input.lease[k]);
    if (!changed.length) return input.lease;
    await tx.sellerSettings.update({ where: { sellerId: input.sellerId }, data: { creditLeaseCalls: input.lease.calls, creditLeaseMs: input.lease.ms } });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "settings.update",
      targetId: input.sellerId,
      before: Object.fromEntries(changed.map((k) => [fields[k], before?.[k] ?? null])),
      after: Object.fromEntries(changed.map((k) => [fields[k], input.lease[k]])),
    });
    return input.lease;
  });
}

/** The storefront's payout wallet (sellers.pay_to_address), null when none is set. */
export async function findPayoutAddress(sellerId: string): Promise<string | null> {
  return (await db.seller.findUnique({ where: { id: sellerId }, select: { payToAddress: true } }))?.payToAddress ?? null;
}

/**
 * Replace the payout wallet if it is still `expected` (two owners changing it at once: the second is told, never
 * silently overwrites), with its audit row, all or nothing. The row change fires the sellers trigger, so every
 * instance's seller cache drops it at commit. Null: it changed under the caller.
 */
export async function savePayoutAddress(input: { sellerId: string; actorId: string; expected: string | null; address: string }): Promise<Date | null> {
  return db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<{ pay_to: string | null }[]>`select pay_to_address as pay_to from sellers where id = ${input.sellerId} for update`;
    if (!row || row.pay_to !== input.expected) return null;
    // The catalog's version too: the cached catalog (server/catalog/catalog.ts) carries the seller's row, and discovery
    // (the manifest, /.well-known/x402, MCP) reads payTo from it; keyed by the version, it is rebuilt at once.
    await tx.seller.update({ where: { id: input.sellerId }, data: { payToAddress: input.address, catalogVersion: { increment: 1 } } });
    await recordAudit(tx, {
      sellerId: input.sellerId,
      actorId: input.actorId,
      action: "settings.payout_address",
      targetId: input.sellerId,
      before: { payToAddress: input.expected },
      after: { payToAddress: input.address },
    });
    return new Date();
  });
}
