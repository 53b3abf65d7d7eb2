// The credentials a person claimed at one storefront, as their controls show them: live, frozen or revoked.
import { findPersonCredentials } from "./controls.queries";

export type PersonCredential = { id: string; kind: string; claimedAt: string | null; state: "live" | "frozen" | "revoked"; frozenAt: string | null };

export async function listPersonCredentials(humanId: string, sellerId: string): Promise<PersonCredential[]> {
  const rows = await findPersonCredentials(humanId, sellerId);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    claimedAt: r.claimedAt?.toISOString() ?? null,
    state: r.revokedAt ? "revoked" : r.frozenAt ? "frozen" : "live",
    frozenAt: r.frozenAt?.toISOString() ?? null,
  }));
}
