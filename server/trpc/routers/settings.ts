import { z } from "zod";
import { getSellerSettings } from "../../settings/get-seller-settings";
import { settingsInput, updateSellerSettings } from "../../settings/update-seller-settings";
import { router, sellerProcedure } from "../init";
import { creditLeaseOutput, merchantInfoOutput, payoutChangeOutput, settingsOutput, unsettledCapOutput } from "../outputs/misc";
import { cardProcessorOutput } from "../outputs/analytics";
import { cardProcessorStatus } from "../../payments/rails";
import { updateMerchantInfo } from "../../settings/update-merchant-info";
import { unsettledCapInput, updateUnsettledCap } from "../../settings/update-unsettled-cap";
import { creditLeaseInput, updateCreditLease } from "../../settings/update-credit-lease";
import { changePayoutAddress } from "../../auth/change-payout-address";

export const settingsRouter = router({
  get: sellerProcedure.output(settingsOutput).query(({ ctx }) => getSellerSettings(ctx.seller.id)),
  // Which processor takes card payments: a deployment setting, shown read-only.
  cardProcessor: sellerProcedure.output(cardProcessorOutput).query(() => cardProcessorStatus()),
  update: sellerProcedure
    .input(settingsInput)
    .output(settingsOutput)
    .mutation(({ ctx, input }) => updateSellerSettings({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, settings: input })),
  // What payers read before paying (checkout, front page); validated by the domain so every caller gets its messages.
  updateMerchant: sellerProcedure
    .input(
      z.object({ contactEmail: z.string().max(300).nullable(), termsText: z.string().max(5000).nullable(), refundPolicy: z.string().max(3000).nullable() }),
    )
    .output(merchantInfoOutput)
    .mutation(({ ctx, input }) => updateMerchantInfo({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, info: input })),
  // The caps on value delivered before settlement, per wallet or across wallets (money: the console confirms it first).
  updateUnsettledCap: sellerProcedure
    .input(unsettledCapInput)
    .output(unsettledCapOutput)
    .mutation(({ ctx, input }) => updateUnsettledCap({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, cap: input })),
  // The bounds on leased plan credit (calls' worth and time per lease); running instances drop the seller's leases.
  updateCreditLease: sellerProcedure
    .input(creditLeaseInput)
    .output(creditLeaseOutput)
    .mutation(({ ctx, input }) => updateCreditLease({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, lease: input })),
  // The payout wallet (money: an owner's, re-authenticated with password and second factor; every owner emailed).
  updatePayoutAddress: sellerProcedure
    .input(z.object({ address: z.string().max(200), password: z.string().min(1).max(1024), code: z.string().trim().max(64).optional() }))
    .output(payoutChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await changePayoutAddress({ sellerId: ctx.seller.id, userId: ctx.seller.userId, ...input });
      return { ...r, changedAt: r.changedAt.toISOString() };
    }),
});
