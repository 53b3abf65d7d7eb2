import { handlePlanPurchase } from "@/server/gateway/handle-plan-purchase";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// POST /plans/{planId}/purchase - buy credit on a plan: the bearer plus a payment on any rail (a 402 without one)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ POST: (ctx) => handlePlanPurchase(ctx, "purchase") });
