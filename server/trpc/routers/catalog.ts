import { z } from "zod";
import { changeMeterPrice } from "../../catalog/change-meter-price";
import { getSellerOverview } from "../../catalog/get-seller-overview";
import { router, sellerProcedure } from "../init";

export const catalogRouter = router({
  overview: sellerProcedure.query(({ ctx }) => getSellerOverview(ctx.seller.id)),
  updatePrice: sellerProcedure
    .input(z.object({ meterId: z.string().min(1).max(64), amountUsd: z.string().min(1).max(32) }))
    .mutation(({ ctx, input }) => changeMeterPrice({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
});
