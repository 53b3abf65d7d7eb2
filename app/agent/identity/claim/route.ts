import { json } from "@/server/http/respond";
import { readJson } from "@/server/http/parse";
import { methods } from "@/server/http/route";
import { startClaim } from "@/server/identity/start-claim";

// POST /agent/identity/claim - start a claim attempt: a short-lived verification_uri for the human
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const seller = await ctx.seller();
    return json(await startClaim(await readJson(ctx.req), { sellerId: seller.id, origin: ctx.origin }), {
      status: 201,
      headers: { "cache-control": "no-store" },
    });
  },
});
