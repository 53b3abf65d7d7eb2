// Refresh tokens: spent once, rotated, and a replay revokes the credential's whole family.
import { db, type Tx } from "../db/client";
import { credentialSelect, type CredentialRow, type NewRefreshToken } from "./credentials.queries";

export type RefreshRotation =
  { type: "rotated"; credential: CredentialRow } | { type: "unknown" } | { type: "reused" } | { type: "expired" } | { type: "revoked" };

/**
 * Spend a refresh token and mint its successor, bumping the credential's generation (older assertions stop
 * exchanging). A token that was already used is a replay: every live token of that credential is revoked too,
 * since one of the two holders is not the agent (RFC 9700 section 4.14.2).
 */
export async function rotateRefreshToken(tokenHash: string, sellerId: string, next: NewRefreshToken, now: Date): Promise<RefreshRotation> {
  return db.$transaction(async (tx: Tx) => {
    const token = await tx.refreshToken.findUnique({
      where: { tokenHash },
      select: { id: true, status: true, expiresAt: true, credentialId: true, credential: { select: { sellerId: true } } },
    });
    // Another storefront's token is unknown here (and is left untouched).
    if (!token || token.credential.sellerId !== sellerId) return { type: "unknown" } as const;
    if (token.status !== "active") {
      if (token.status === "used")
        await tx.refreshToken.updateMany({ where: { credentialId: token.credentialId, status: "active" }, data: { status: "revoked" } });
      return { type: "reused" } as const;
    }
    if (token.expiresAt <= now) return { type: "expired" } as const;
    const spent = await tx.refreshToken.updateMany({ where: { id: token.id, status: "active" }, data: { status: "used", usedAt: now } });
    if (spent.count !== 1) return { type: "reused" } as const;
    const bumped = await tx.agentCredential.updateMany({
      where: { id: token.credentialId, status: "claimed", revokedAt: null },
      data: { generation: { increment: 1 } },
    });
    if (bumped.count !== 1) return { type: "revoked" } as const;
    await tx.refreshToken.create({ data: { ...next, credentialId: token.credentialId } });
    const credential = await tx.agentCredential.findUniqueOrThrow({ where: { id: token.credentialId }, select: credentialSelect });
    return { type: "rotated", credential } as const;
  });
}
