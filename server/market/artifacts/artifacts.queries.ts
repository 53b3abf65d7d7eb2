import { db } from "../../db/client";

export async function insertArtifact(a: { id: string; contentType: string; bytes: Buffer; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.marketArtifact.create({
    data: { id: a.id, contentType: a.contentType, bytes: new Uint8Array(a.bytes), createdAt: a.createdAt, expiresAt: a.expiresAt },
  });
}

/** The artifact if it exists and has not expired at `now`. */
export async function findLiveArtifact(id: string, now: Date): Promise<{ contentType: string; bytes: Uint8Array; expiresAt: Date } | null> {
  return db.marketArtifact.findFirst({ where: { id, expiresAt: { gt: now } }, select: { contentType: true, bytes: true, expiresAt: true } });
}

export async function deleteExpiredArtifacts(now: Date): Promise<number> {
  const res = await db.marketArtifact.deleteMany({ where: { expiresAt: { lte: now } } });
  return res.count;
}
