import { z } from "zod";
import {
  addIdentityProvider,
  consoleProviderInput,
  listIdentityProviders,
  removeIdentityProvider,
  setIdentityProviderEnabled,
} from "../../identity/manage-identity-providers";
import { router, sellerProcedure } from "../init";

const providerId = z.string().min(1).max(64);

export const identityRouter = router({
  providers: sellerProcedure.query(({ ctx }) => listIdentityProviders(ctx.seller.id)),
  // The shared provider schema validates here first, so the form gets every field's message (data.zodError).
  addProvider: sellerProcedure
    .input(consoleProviderInput)
    .mutation(({ ctx, input }) => addIdentityProvider({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, provider: input })),
  setProviderEnabled: sellerProcedure
    .input(z.object({ id: providerId, enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setIdentityProviderEnabled({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
  removeProvider: sellerProcedure
    .input(z.object({ id: providerId }))
    .mutation(({ ctx, input }) => removeIdentityProvider({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, id: input.id })),
});
