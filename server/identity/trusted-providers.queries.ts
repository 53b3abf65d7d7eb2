// The storefront's trusted ID-JAG providers (and its hosts, shown beside them in the console): plain reads and
// writes, and the console's changes, each with its audit row in the same transaction.
import { db, type Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { recordAudit } from "../audit/audit.queries";
import { newId } from "../lib/ids";

export type TrustedProviderRow = { id: string; sellerId: string; issuer: string; jwksUri: string | null; jwks: unknown; enabled: boolean };

export async function findTrustedProvider(sellerId: string, issuer: string): Promise<TrustedProviderRow | null> {
  return db.trustedIdentityProvider.findUnique({ where: { sellerId_issuer: { sellerId, issuer } } });
}

export async function listTrustedProviders(sellerId: string): Promise<TrustedProviderRow[]> {
  return db.trustedIdentityProvider.findMany({ where: { sellerId }, orderBy: { createdAt: "asc" } });
}

export async function upsertTrustedProvider(input: {
  sellerId: string;
  issuer: string;
  jwksUri: string | null;
  jwks: object | null;
  enabled: boolean;
}): Promise<TrustedProviderRow> {
  const data = { jwksUri: input.jwksUri, jwks: input.jwks ?? Prisma.DbNull, enabled: input.enabled };
  return db.trustedIdentityProvider.upsert({
    where: { sellerId_issuer: { sellerId: input.sellerId, issuer: input.issuer } },
    create: { id: newId("tip"), sellerId: input.sellerId, issuer: input.issuer, ...data },
    update: data,
  });
}

export async function deleteTrustedProvider(sellerId: string, id: string): Promise<boolean> {
  const res = await db.trustedIdentityProvider.deleteMany({ where: { id, sellerId } });
  return res.count === 1;
}

export type TrustedProviderListRow = TrustedProviderRow & { createdAt: Date };

/** What an audit row says about a provider; the domain decides (no key material beyond kid/kty). */
export type ProviderAuditDescriber = (row: TrustedProviderRow) => Prisma.InputJsonValue;
type ProviderAudit = { actorId: string | null; describe: ProviderAuditDescriber };

export async function listTrustedProvidersWithTimes(sellerId: string): Promise<TrustedProviderListRow[]> {
  return db.trustedIdentityProvider.findMany({ where: { sellerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The storefront's hosts (read-only in the console): each is an origin, and so an issuer, of the same storefront. */
export async function listSellerHosts(sellerId: string): Promise<{ hostname: string; createdAt: Date }[]> {
  return db.sellerHost.findMany({ where: { sellerId }, select: { hostname: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { hostname: "asc" }] });
}

async function writeProviderAudit(
  tx: Tx,
  sellerId: string,
  action: "identity_provider.add" | "identity_provider.update" | "identity_provider.remove",
  targetId: string,
  audit: ProviderAudit,
  before: TrustedProviderRow | null,
  after: TrustedProviderRow | null,
) {
  await recordAudit(tx, {
    sellerId,
    actorId: audit.actorId,
    action,
    targetId,
    before: before ? audit.describe(before) : null,
    after: after ? audit.describe(after) : null,
  });
}

/**
 * Lock one of the seller's providers for the rest of the transaction (SELECT ... FOR UPDATE) and read it, so
 * the audit row's "before" is the state the change replaced even when two console sessions race.
 * Another seller's id matches nothing.
 */
async function lockProvider(tx: Tx, sellerId: string, id: string): Promise<TrustedProviderListRow | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM trusted_identity_providers WHERE id = ${id} AND seller_id = ${sellerId} FOR UPDATE`;
  if (locked.length !== 1) return null;
  return tx.trustedIdentityProvider.findUnique({ where: { id } });
}

/** Console add, one transaction: the provider (create only: an issuer the seller already trusts is "exists") and its audit row. */
export async function createTrustedProviderAudited(
  input: { id: string; sellerId: string; issuer: string; jwksUri: string | null; jwks: object | null; enabled: boolean },
  audit: ProviderAudit,
): Promise<{ type: "created"; provider: TrustedProviderListRow } | { type: "exists" }> {
  return db.$transaction(async (tx: Tx) => {
    // ON CONFLICT DO NOTHING on (seller_id, issuer): two racing adds of one issuer create one row, one audit row.
    const created = await tx.trustedIdentityProvider.createMany({
      data: [
        { id: input.id, sellerId: input.sellerId, issuer: input.issuer, jwksUri: input.jwksUri, jwks: input.jwks ?? Prisma.DbNull, enabled: input.enabled },
      ],
      skipDuplicates: true,
    });
    if (created.count !== 1) return { type: "exists" } as const;
    const provider = await tx.trustedIdentityProvider.findUniqueOrThrow({ where: { id: input.id } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.add", provider.id, audit, null, provider);
    return { type: "created", provider } as const;
  });
}

/** Console enable/disable, one transaction. Setting the state it already has changes nothing and writes no audit row. */
export async function setTrustedProviderEnabledAudited(
  input: { sellerId: string; id: string; enabled: boolean },
  audit: ProviderAudit,
): Promise<{ type: "updated" | "unchanged"; provider: TrustedProviderListRow } | { type: "not_found" }> {
  return db.$transaction(async (tx: Tx) => {
    const before = await lockProvider(tx, input.sellerId, input.id);
    if (!before) return { type: "not_found" } as const;
    if (before.enabled === input.enabled) return { type: "unchanged", provider: before } as const;
    const provider = await tx.trustedIdentityProvider.update({ where: { id: input.id }, data: { enabled: input.enabled } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.update", provider.id, audit, before, provider);
    return { type: "updated", provider } as const;
  });
}

/** Console remove, one transaction: the row goes, the audit row keeps what it was (without private key material). */
export async function deleteTrustedProviderAudited(
  input: { sellerId: string; id: string },
  audit: ProviderAudit,
): Promise<{ type: "removed"; provider: TrustedProviderRow } | { type: "not_found" }> {
  return db.$transaction(async (tx: Tx) => {
    const before = await lockProvider(tx, input.sellerId, input.id);
    if (!before) return { type: "not_found" } as const;
    await tx.trustedIdentityProvider.delete({ where: { id: input.id } });
    await writeProviderAudit(tx, input.sellerId, "identity_provider.remove", before.id, audit, before, null);
    return { type: "removed", provider: before } as const;
  });
}
