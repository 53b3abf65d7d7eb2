import { z } from "zod";
import { MAX_CHALLENGE_ID_LENGTH } from "../../payments/challenge-id";
import { exportPaymentEvidence } from "../../payment-reports/export-payment-evidence";
import { getPaymentDetail } from "../../payment-reports/get-payment-detail";
import { getPaymentFilterOptions, getSellerPaymentTotals, listSellerPayments, summarizeSellerPayments } from "../../payment-reports/list-seller-payments";
import { paymentFilter } from "../../payment-reports/payment-filter";
import { listSellerRefunds, summarizeSellerRefunds } from "../../payment-reports/list-seller-refunds";
import { refundFilter } from "../../payment-reports/refund-filter";
import { refundPayment } from "../../payments/refund-payment";
import { router, sellerProcedure } from "../init";
import { evidenceOutput } from "../outputs/evidence";
import {
  detailOutput,
  filterOptionsOutput,
  listOutput,
  refundOutput,
  refundsOutput,
  refundsSummaryOutput,
  summaryOutput,
  totalsOutput,
} from "../outputs/payments";

// Up to a signed challenge id's length (payments born from a 402 carry its terms in their id: docs/challenges.md).
const paymentId = z.string().min(1).max(MAX_CHALLENGE_ID_LENGTH);

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
  // The evidence file of one payment (a download on its page): receipt, terms, proof metadata without secrets, settlement,
  // ledger, audit and events. Seller-scoped like `detail`: another seller's id is not found.
  evidence: sellerProcedure
    .input(z.object({ id: paymentId }))
    .output(evidenceOutput)
    .query(({ ctx, input }) => exportPaymentEvidence(ctx.seller.id, input.id)),
  // The Refunds page: filtered by status, rail and days of the refund, newest first; its totals below.
  refunds: sellerProcedure
    .input(refundFilter.and(z.object({ cursor: z.string().max(100).nullish() })).prefault({}))
    .output(refundsOutput)
    .query(({ ctx, input }) => listSellerRefunds(ctx.seller.id, input)),
  refundsSummary: sellerProcedure
    .input(refundFilter.prefault({}))
    .output(refundsSummaryOutput)
    .query(({ ctx, input }) => summarizeSellerRefunds(ctx.seller.id, input)),
  // A refund, whatever the rail: the wallet rails record the transfer the seller sent back on chain from their payTo
  // wallet (`transaction`; its format is checked by the domain, so every caller gets the same message), the card rail
  // refunds through its processor, in full or in part (`amount`, checked by the domain with the console's rule). The
  // ledger row and the audit row come with it; a second submit (the same `requestKey`) returns the first result.
  refund: sellerProcedure
    .input(
      z.object({
        paymentId,
        transaction: z.string().max(200).optional(),
        amount: z.string().max(40).optional(),
        requestKey: z.string().min(8).max(100).optional(),
        reason: z.string().trim().max(500).optional(),
      }),
    )
    .output(refundOutput)
    .mutation(({ ctx, input }) =>
      refundPayment({
        sellerId: ctx.seller.id,
        actorId: ctx.seller.userId,
        paymentId: input.paymentId,
        transaction: input.transaction,
        amount: input.amount,
        requestKey: input.requestKey,
        reason: input.reason || undefined,
      }),
    ),
});
