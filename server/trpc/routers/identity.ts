import { z } from "zod";
import {
  addIdentityProvider,
  consoleProviderInput,
  listIdentityProviders,
  removeIdentityProvider,
  setIdentityProviderEnabled,
} from "../../identity/manage-identity-providers";
import { router, sellerProcedure } from "../init";
import { providerOutput, providerRemovedOutput, providersOutput } from "../outputs/misc";

const providerId = z.string().min(1).max(64);

export const identityRouter = router({
  providers: sellerProcedure.output(providersOutput).query(({ ctx }) => listIdentityProviders(ctx.seller.id)),
  // The shared provider schema validates here first, so the form gets every field's message (data.zodError).
  addProvider: sellerProcedure
    .input(consoleProviderInput)
    .output(providerOutput)
    .mutation(({ ctx, input }) => addIdentityProvider({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, provider: input })),
  setProviderEnabled: sellerProcedure
    .input(z.object({ id: providerId, enabled: z.boolean() }))
    .output(providerOutput)
    .mutation(({ ctx, input }) => setIdentityProviderEnabled({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
  removeProvider: sellerProcedure
    .input(z.object({ id: providerId }))
    .output(providerRemovedOutput)
    .mutation(({ ctx, input }) => removeIdentityProvider({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, id: input.id })),
});
