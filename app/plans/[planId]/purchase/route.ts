import { checkPurchaseAmount, findPlan, parsePurchaseBody, purchaseNotAvailable } from "@/server/catalog/plan-purchase";
import { readJson } from "@/server/http/parse";
import { methods } from "@/server/http/route";

// POST /plans/{planId}/purchase - buy a credit plan (amount rules enforced; purchase itself not yet offered)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const plan = findPlan(await ctx.catalog(), String(ctx.params.planId));
    checkPurchaseAmount(plan, parsePurchaseBody(await readJson(ctx.req, { optional: true })));
    return purchaseNotAvailable();
  },
});
