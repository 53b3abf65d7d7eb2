import { methods } from "@/server/http/route";
import { json } from "@/server/http/respond";
import { getPaymentStatus } from "@/server/payments/get-payment-status";

export const dynamic = "force-dynamic";

// GET /payments/{id} - payment status (the 402's card.statusUrl)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => json(await getPaymentStatus((await ctx.seller()).id, String(ctx.params.id), ctx.origin), { headers: { "cache-control": "no-store" } }),
});
