import { methods } from "@/server/http/route";
import { json } from "@/server/http/respond";
import { getReceipt } from "@/server/receipts/get-receipt";

export const dynamic = "force-dynamic";

// GET /payments/{id}/receipt - the signed receipt (compact JWS) of the answer that charged the payment
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => json(await getReceipt((await ctx.seller()).id, String(ctx.params.id), ctx.origin), { headers: { "cache-control": "no-store" } }),
});
