import { purchaseNotAvailable } from "@/server/catalog/plan-purchase";
import { methods } from "@/server/http/route";

// POST /extend - top up a plan (not yet offered: 501, nothing charged)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    await ctx.catalog();
    return purchaseNotAvailable();
  },
});
