import { z } from "zod";
import { consolePrice } from "../../contracts/console";
import { changeMeterPrice, previewMeterPrice } from "../../price-changes/change-meter-price";
import { getSellerOverview } from "../../catalog/get-seller-overview";
import {
  createPlan,
  createPlanInput,
  listSellerPlans,
  planTermsInput,
  previewPlanChange,
  retirePlan,
  updateMeter,
  updateMeterInput,
  updatePlan,
} from "../../catalog/manage-plans";
import { router, sellerProcedure } from "../init";
import {
  meterChangeOutput,
  planChangeOutput,
  planPreviewOutput,
  planRetireOutput,
  plansOutput,
  priceChangeOutput,
  pricePreviewOutput,
  sellerOverviewOutput,
} from "../outputs/catalog";

// The price is checked by the rule the console's form checks it with, so both say the same words.
const priceInput = z.object({ meterId: z.string().min(1).max(64), amountUsd: consolePrice });
const planTerms = planTermsInput.extend({ planId: z.string().min(1).max(64) });

export const catalogRouter = router({
  overview: sellerProcedure.output(sellerOverviewOutput).query(({ ctx }) => getSellerOverview(ctx.seller.id)),
  updatePrice: sellerProcedure
    .input(priceInput)
    .output(priceChangeOutput)
    .mutation(({ ctx, input }) => changeMeterPrice({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
  // What a price change would do (calls and revenue of the last 30 days at each price, rails gained or lost); reads only.
  previewPrice: sellerProcedure
    .input(priceInput)
    .output(pricePreviewOutput)
    .query(({ ctx, input }) => previewMeterPrice({ sellerId: ctx.seller.id, ...input })),
  // Plans and meters (issue 9): each change is its rows, an audit row and a catalog version bump in one transaction.
  plans: sellerProcedure.output(plansOutput).query(({ ctx }) => listSellerPlans(ctx.seller.id)),
  createPlan: sellerProcedure
    .input(createPlanInput)
    .output(planChangeOutput)
    .mutation(({ ctx, input }) => createPlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input)),
  updatePlan: sellerProcedure
    .input(planTerms)
    .output(planChangeOutput)
    .mutation(({ ctx, input: { planId, ...terms } }) => updatePlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, planId, terms)),
  // What a change of terms would do (each term before and after, the credit already bought, whether it is refused); reads only.
  previewPlan: sellerProcedure
    .input(planTerms)
    .output(planPreviewOutput)
    .query(({ ctx, input: { planId, ...terms } }) => previewPlanChange({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, planId, terms)),
  retirePlan: sellerProcedure
    .input(z.object({ planId: z.string().min(1).max(64) }))
    .output(planRetireOutput)
    .mutation(({ ctx, input }) => retirePlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input.planId)),
  updateMeter: sellerProcedure
    .input(updateMeterInput)
    .output(meterChangeOutput)
    .mutation(({ ctx, input }) => updateMeter({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input)),
});
