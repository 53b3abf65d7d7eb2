// The Customers page's people: each human who claimed agent credentials at this storefront, with the credentials
// linked to them and what those share (a plan bought by one credential pays for every credential of the same human):
// the plans with live credit, the balance left and the credit ever bought, what the credentials paid (net of
// refunds, purchases included), what they drew on credit, their served calls and the last one. The per-credential
// view of the same money is list-customer-credentials.ts.
import { decodePageCursor, encodePageCursor } from "../lib/page-cursor";
import { microsToUsd } from "../lib/money";
import { findSellerHumans } from "./customers.queries";

export const HUMANS_PAGE_SIZE = 25;

export async function listCustomerHumans(sellerId: string, q: { cursor?: string | null } = {}) {
  const c = q.cursor ? decodePageCursor(q.cursor) : null;
  const cursor = c ? { since: c.at, humanId: c.id } : null;
  const rows = await findSellerHumans(sellerId, { cursor, take: HUMANS_PAGE_SIZE + 1 });
  const page = rows.slice(0, HUMANS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    humans: page.map((h) => ({
      id: h.humanId,
      email: h.email,
      since: h.since.toISOString(),
      credentials: h.credentials.map((c) => ({ id: c.id, kind: c.kind, state: c.revoked ? "revoked" : "claimed" })),
      plans: h.plans,
      balanceUsd: microsToUsd(h.balanceMicros),
      purchasedUsd: microsToUsd(h.purchasedMicros),
      spentUsd: microsToUsd(h.spentMicros),
      drawnUsd: microsToUsd(h.drawnMicros),
      calls: h.calls,
      lastCallAt: h.lastCallAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > HUMANS_PAGE_SIZE && last ? encodePageCursor(last.since, last.humanId) : null,
  };
}
