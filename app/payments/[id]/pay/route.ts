import { z } from "zod";
import { readJson } from "@/server/http/parse";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { openCheckout } from "@/server/payments/rails/card/checkout/open-checkout";
import { parseWith } from "@/server/validation";

export const dynamic = "force-dynamic";

// The hosted checkout is the one way to pay here; the MPP card method answers the 402's challenge on the request itself.
const body = z.object({ checkout: z.literal(true, { error: 'send {"checkout": true} for a hosted checkout a human pays on' }) });

// POST /payments/{id}/pay - the 402's card.payUrl: {"checkout": true} opens a hosted card checkout (needs no funds)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    parseWith(body, await readJson(ctx.req, { optional: true }));
    const opened = await openCheckout({ catalog: await ctx.catalog(), paymentId: String(ctx.params.id), origin: ctx.origin });
    return json(opened, { headers: { "cache-control": "no-store" } });
  },
});
