import { json } from "@/server/http/respond";
import { readJson } from "@/server/http/parse";
import { methods } from "@/server/http/route";
import { completeClaimWithCode } from "@/server/identity/complete-claim";

// POST /agent/identity/claim/complete - finish a claim with the user code; returns the claimed identity once
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const seller = await ctx.seller();
    return json(await completeClaimWithCode(await readJson(ctx.req), { sellerId: seller.id, origin: ctx.origin }), {
      headers: { "cache-control": "no-store" },
    });
  },
});
