import { z } from "zod";
import { getSellerPaymentTotals, listSellerPayments } from "../../payments/list-seller-payments";
import { refundCardPaymentForSeller } from "../../payments/card/refund-card-payment";
import { recordRefund } from "../../payments/refund";
import { router, sellerProcedure } from "../init";

export const paymentsRouter = router({
  // `cursor` is the field name @trpc/tanstack-react-query's infinite queries page with.
  list: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish(), includeChallenged: z.boolean().default(false) }))
    .query(({ ctx, input }) => listSellerPayments(ctx.seller.id, input)),
  totals: sellerProcedure.query(({ ctx }) => getSellerPaymentTotals(ctx.seller.id)),
  // The refund the seller sent on chain from their payTo wallet; the hash's format is checked by the domain, so
  // every caller gets the same message.
  recordRefund: sellerProcedure
    .input(z.object({ paymentId: z.string().min(1).max(64), transaction: z.string().max(200) }))
    .mutation(({ ctx, input }) =>
      recordRefund({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, paymentId: input.paymentId, transaction: input.transaction }),
    ),
  // A card payment refunded in full with one click: the processor's refund, the ledger row and the audit row;
  // a second click returns the first result.
  refundCard: sellerProcedure
    .input(z.object({ paymentId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => refundCardPaymentForSeller({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, paymentId: input.paymentId })),
});
