// The only file that touches Prisma for the identity platform's signing keys.
import { db, type Tx } from "../db/client";

export type SigningKeyRow = { kid: string; alg: string; publicJwk: unknown; privateKeyEnc: string; createdAt: Date };

export async function findNewestSigningKeys(take: number): Promise<SigningKeyRow[]> {
  return db.identitySigningKey.findMany({ orderBy: { createdAt: "desc" }, take });
}

/**
 * Make a key when the newest one is missing or older than `rotateBefore`. Under a transaction-scoped advisory
 * lock, so instances starting together make one key, not one each.
 */
export async function ensureFreshSigningKey(rotateBefore: Date, make: () => Promise<Omit<SigningKeyRow, "createdAt">>): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity_signing_keys'))`;
    const newest = await tx.identitySigningKey.findFirst({ orderBy: { createdAt: "desc" }, select: { createdAt: true } });
    if (newest && newest.createdAt > rotateBefore) return;
    const k = await make();
    await tx.identitySigningKey.create({ data: { kid: k.kid, alg: k.alg, publicJwk: k.publicJwk as object, privateKeyEnc: k.privateKeyEnc } });
  });
}
