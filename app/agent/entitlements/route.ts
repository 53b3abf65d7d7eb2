import { getEntitlements } from "@/server/billing/get-entitlements";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { requireAgent } from "@/server/identity/require-agent";

// GET /agent/entitlements - the bearer's identity, linked credentials, plans with their balance, free units left
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const seller = await ctx.seller();
    const agent = await requireAgent(ctx.req, { sellerId: seller.id, origin: ctx.origin });
    return json(await getEntitlements(agent, await ctx.catalog()), { headers: { "cache-control": "no-store" } });
  },
});
