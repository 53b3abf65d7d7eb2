import { z } from "zod";
import { rangeInput } from "../../analytics/date-range";
import { listPayingWallets } from "../../analytics/list-paying-wallets";
import { listCustomerCredentials } from "../../billing/list-customer-credentials";
import { listCustomerHumans } from "../../billing/list-customer-humans";
import { router, sellerProcedure } from "../init";

export const customersRouter = router({
  payers: sellerProcedure
    .input(rangeInput.extend({ page: z.number().int().min(1).max(10_000).default(1) }).prefault({}))
    .query(({ ctx, input }) => listPayingWallets(ctx.seller.id, input)),
  credentials: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish() }).prefault({}))
    .query(({ ctx, input }) => listCustomerCredentials(ctx.seller.id, input)),
  humans: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish() }).prefault({}))
    .query(({ ctx, input }) => listCustomerHumans(ctx.seller.id, input)),
});
