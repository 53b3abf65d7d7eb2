import { z } from "zod";
import { getSellerPaymentTotals, listSellerPayments } from "../../payments/console";
import { router, sellerProcedure } from "../init";

export const paymentsRouter = router({
  // `cursor` is the field name @trpc/tanstack-react-query's infinite queries page with.
  list: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish(), includeChallenged: z.boolean().default(false) }))
    .query(({ ctx, input }) => listSellerPayments(ctx.seller.id, input)),
  totals: sellerProcedure.query(({ ctx }) => getSellerPaymentTotals(ctx.seller.id)),
});
