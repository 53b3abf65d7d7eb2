import { handlePlanPurchase } from "@/server/gateway/handle-plan-purchase";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// POST /extend - top up credit on a plan the bearer already holds (planId, or the only one)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ POST: (ctx) => handlePlanPurchase(ctx, "extend") });
