// The Plans page's "who bought it": one plan's buyers, largest amount first, a page of `limit` and whether there are
// more (the page asks again with a larger limit: sorted by amount, a keyset would page over a moving sum).
import { microsToUsd } from "../lib/money";
import { findPlanBuyers } from "./plan-buyers.queries";

export async function listPlanBuyers(sellerId: string, q: { planId: string; limit: number }) {
  const rows = await findPlanBuyers(sellerId, q.planId, q.limit + 1);
  return {
    buyers: rows.slice(0, q.limit).map((r) => ({
      humanId: r.humanId,
      email: r.email,
      credentialIds: r.credentialIds,
      purchases: r.purchases,
      topUps: r.topUps,
      boughtUsd: microsToUsd(r.boughtMicros),
      creditLeftUsd: microsToUsd(r.leftMicros),
      lastPurchaseAt: r.lastPurchaseAt.toISOString(),
    })),
    more: rows.length > q.limit,
  };
}
