import { z } from "zod";
import { getPaymentDetail } from "../../payments/get-payment-detail";
import {
  getPaymentFilterOptions,
  getSellerPaymentTotals,
  listSellerPayments,
  listSellerRefunds,
  summarizeSellerPayments,
} from "../../payments/list-seller-payments";
import { paymentFilter } from "../../payments/payment-filter";
import { refundCardPaymentForSeller } from "../../payments/card/refund-card-payment";
import { recordRefund } from "../../payments/refund";
import { router, sellerProcedure } from "../init";
import { detailOutput, filterOptionsOutput, listOutput, refundsOutput, summaryOutput, totalsOutput } from "../outputs/payments";

const paymentId = z.string().min(1).max(64);

export const paymentsRouter = router({
  // `cursor` is the field name @trpc/tanstack-react-query's infinite queries page with.
  list: sellerProcedure
    .input(paymentFilter.extend({ cursor: z.string().max(100).nullish() }))
    .output(listOutput)
    .query(({ ctx, input }) => listSellerPayments(ctx.seller.id, input)),
  // Totals of the filtered set the list pages through (the same filter, no cursor).
  summary: sellerProcedure
    .input(paymentFilter)
    .output(summaryOutput)
    .query(({ ctx, input }) => summarizeSellerPayments(ctx.seller.id, input)),
  filterOptions: sellerProcedure.output(filterOptionsOutput).query(({ ctx }) => getPaymentFilterOptions(ctx.seller.id)),
  totals: sellerProcedure.output(totalsOutput).query(({ ctx }) => getSellerPaymentTotals(ctx.seller.id)),
  detail: sellerProcedure
    .input(z.object({ id: paymentId }))
    .output(detailOutput)
    .query(({ ctx, input }) => getPaymentDetail(ctx.seller.id, input.id)),
  refunds: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish() }).prefault({}))
    .output(refundsOutput)
    .query(({ ctx, input }) => listSellerRefunds(ctx.seller.id, input)),
  // The refund the seller sent on chain from their payTo wallet; the hash's format is checked by the domain, so
  // every caller gets the same message.
  recordRefund: sellerProcedure
    .input(z.object({ paymentId, transaction: z.string().max(200) }))
    .mutation(({ ctx, input }) =>
      recordRefund({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, paymentId: input.paymentId, transaction: input.transaction }),
    ),
  // A card payment refunded in full with one click: the processor's refund, the ledger row and the audit row;
  // a second click returns the first result.
  refundCard: sellerProcedure
    .input(z.object({ paymentId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => refundCardPaymentForSeller({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, paymentId: input.paymentId })),
});
