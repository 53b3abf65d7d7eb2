import { getSellerSettings } from "../../settings/get-seller-settings";
import { settingsInput, updateSellerSettings } from "../../settings/update-seller-settings";
import { router, sellerProcedure } from "../init";
import { settingsOutput } from "../outputs/misc";

export const settingsRouter = router({
  get: sellerProcedure.output(settingsOutput).query(({ ctx }) => getSellerSettings(ctx.seller.id)),
  update: sellerProcedure
    .input(settingsInput)
    .output(settingsOutput)
    .mutation(({ ctx, input }) => updateSellerSettings({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, settings: input })),
});
