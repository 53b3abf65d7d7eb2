import { readText } from "@/server/http/parse";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { handleProcessorWebhook } from "@/server/payments/rails/card/processor/handle-processor-webhook";

export const dynamic = "force-dynamic";

// POST /webhooks/stripe - Stripe's events (checkout paid or expired, refunds), verified against STRIPE_WEBHOOK_SECRET
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // The signature covers the raw bytes: read them as sent (at most 512 KiB), never re-serialised.
  POST: async (ctx) => json(await handleProcessorWebhook(await readText(ctx.req, 512 * 1024), ctx.req.headers.get("stripe-signature"))),
});
