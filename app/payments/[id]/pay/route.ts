import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";
import { getPaymentStatus } from "@/server/payments/get-payment-status";

export const dynamic = "force-dynamic";

// POST /payments/{id}/pay - card checkout for a 402 of $0.50 or more (the card rail is not built yet: 501)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    // An unknown id is still a 404, so clients can tell "wrong id" from "rail missing".
    await getPaymentStatus((await ctx.seller()).id, String(ctx.params.id));
    throw new AppError("not_implemented", { detail: "card checkout is not available yet; pay this 402 with x402 (X-PAYMENT) instead" });
  },
});
