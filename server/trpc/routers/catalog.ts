import { z } from "zod";
import { changeMeterPrice } from "../../catalog/change-meter-price";
import { getSellerOverview } from "../../catalog/get-seller-overview";
import {
  createPlan,
  createPlanInput,
  listSellerPlans,
  planTermsInput,
  retirePlan,
  updateMeter,
  updateMeterInput,
  updatePlan,
} from "../../catalog/manage-plans";
import { router, sellerProcedure } from "../init";

export const catalogRouter = router({
  overview: sellerProcedure.query(({ ctx }) => getSellerOverview(ctx.seller.id)),
  updatePrice: sellerProcedure
    .input(z.object({ meterId: z.string().min(1).max(64), amountUsd: z.string().min(1).max(32) }))
    .mutation(({ ctx, input }) => changeMeterPrice({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
  // Plans and meters (issue 9): each change is its rows, an audit row and a catalog version bump in one transaction.
  plans: sellerProcedure.query(({ ctx }) => listSellerPlans(ctx.seller.id)),
  createPlan: sellerProcedure.input(createPlanInput).mutation(({ ctx, input }) => createPlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input)),
  updatePlan: sellerProcedure
    .input(planTermsInput.extend({ planId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input: { planId, ...terms } }) => updatePlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, planId, terms)),
  retirePlan: sellerProcedure
    .input(z.object({ planId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => retirePlan({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input.planId)),
  updateMeter: sellerProcedure
    .input(updateMeterInput)
    .mutation(({ ctx, input }) => updateMeter({ sellerId: ctx.seller.id, actorId: ctx.seller.userId }, input)),
});
