// The Customers page's agent credentials: kind, state, the human who claimed it, when (server/billing adds the money:
// list-customer-credentials.ts).
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { findSellerCredentials } from "./credentials.queries";

export const CREDENTIALS_PAGE_SIZE = 25;

export async function listAgentCredentials(sellerId: string, q: { cursor?: string | null } = {}, now: Date = new Date()) {
  const c = q.cursor ? decodePageCursor(q.cursor) : null;
  const cursor = c ? { createdAt: c.at, id: c.id } : null;
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
    nextCursor: rows.length > CREDENTIALS_PAGE_SIZE && last ? encodePageCursor(last.createdAt, last.id) : null,
  };
}
