import { z } from "zod";
import { rangeInput } from "../../lib/date-range";
import { listPayingWallets } from "../../analytics/list-paying-wallets";
import { listCustomerCredentials } from "../../billing/list-customer-credentials";
import { listCustomerHumans } from "../../billing/list-customer-humans";
import { router, sellerProcedure } from "../init";
import { cardPayersOutput, credentialsOutput, customerOutput, humansOutput, payersOutput, planBuyersOutput } from "../outputs/misc";
import { listPlanBuyers } from "../../billing/list-plan-buyers";
import { listCardPayers } from "../../billing/list-card-payers";
import { getCustomer } from "../../billing/get-customer";

export const customersRouter = router({
  payers: sellerProcedure
    .input(rangeInput.extend({ page: z.number().int().min(1).max(10_000).default(1) }).prefault({}))
    .output(payersOutput)
    .query(({ ctx, input }) => listPayingWallets(ctx.seller.id, input)),
  cardPayers: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(cardPayersOutput)
    .query(({ ctx, input }) => listCardPayers(ctx.seller.id, input)),
  credentials: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish() }).prefault({}))
    .output(credentialsOutput)
    .query(({ ctx, input }) => listCustomerCredentials(ctx.seller.id, input)),
  humans: sellerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish() }).prefault({}))
    .output(humansOutput)
    .query(({ ctx, input }) => listCustomerHumans(ctx.seller.id, input)),
  planBuyers: sellerProcedure
    .input(z.object({ planId: z.string().min(1).max(100), limit: z.number().int().min(1).max(500).default(25) }))
    .output(planBuyersOutput)
    .query(({ ctx, input }) => listPlanBuyers(ctx.seller.id, input)),
  // One customer's page: a wallet address, an email (a card payer or a person who claimed credentials) or a credential id.
  customer: sellerProcedure
    .input(z.object({ id: z.string().trim().min(1).max(320) }))
    .output(customerOutput)
    .query(({ ctx, input }) => getCustomer(ctx.seller.id, input.id)),
});
