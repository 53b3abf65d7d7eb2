// The Customers page's agent credentials: kind, state, the human who claimed it, when (server/billing adds the money:
// list-customer-credentials.ts).
import { AppError } from "../errors";
import { findSellerCredentials } from "./identity.queries";

export const CREDENTIALS_PAGE_SIZE = 25;
const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_]{1,64})$/;

export async function listAgentCredentials(sellerId: string, q: { cursor?: string | null } = {}, now: Date = new Date()) {
  let cursor: { createdAt: Date; id: string } | null = null;
  if (q.cursor) {
    const m = CURSOR.exec(q.cursor);
    if (!m)
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: "cursor must be the nextCursor of a previous page",
        extra: { parameter: "cursor" },
      });
    cursor = { createdAt: new Date(Number(m[1])), id: m[2]! };
  }
  const rows = await findSellerCredentials(sellerId, { cursor, take: CREDENTIALS_PAGE_SIZE + 1 });
  const page = rows.slice(0, CREDENTIALS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    credentials: page.map((c) => ({
      id: c.id,
      kind: c.kind,
      // What the agent can do with it now: revoked and expired win over the stored status.
      state: c.revokedAt ? "revoked" : c.expiresAt && c.expiresAt <= now ? "expired" : c.status,
      human: c.human?.email ?? null,
      createdAt: c.createdAt.toISOString(),
      claimedAt: c.claimedAt?.toISOString() ?? null,
      expiresAt: c.expiresAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > CREDENTIALS_PAGE_SIZE && last ? `${last.createdAt.getTime()}.${last.id}` : null,
  };
}
