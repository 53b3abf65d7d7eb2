import { z } from "zod";
import { rangeInput } from "../../lib/date-range";
import { getFunnel } from "../../analytics/get-funnel";
import { getMargin } from "../../analytics/get-margin";
import { getMeterUsage } from "../../analytics/get-meter-usage";
import { getHeadline, getOverview } from "../../analytics/get-overview";
import { getTopCustomers } from "../../analytics/get-top-customers";
import { getSetupChecklist } from "../../analytics/get-setup-checklist";
import { router, sellerProcedure } from "../init";
import { funnelOutput, headlineOutput, marginOutput, meterUsageOutput, overviewOutput, setupChecklistOutput, topCustomersOutput } from "../outputs/analytics";

export const analyticsRouter = router({
  // Net revenue today, month to date, 7 and 30 days: the overview's headline, one statement.
  headline: sellerProcedure.output(headlineOutput).query(({ ctx }) => getHeadline(ctx.seller.id)),
  overview: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(overviewOutput)
    .query(({ ctx, input }) => getOverview(ctx.seller.id, input)),
  // The range's top wallets and credentials: beside the overview, not in it (it reads every payer-day of the range).
  topCustomers: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(topCustomersOutput)
    .query(({ ctx, input }) => getTopCustomers(ctx.seller.id, input)),
  meterUsage: sellerProcedure
    .input(rangeInput.prefault({ preset: "30d" }))
    .output(meterUsageOutput)
    .query(({ ctx, input }) => getMeterUsage(ctx.seller.id, input)),
  funnel: sellerProcedure
    .input(rangeInput.extend({ operation: z.string().max(64).nullish(), rail: z.string().max(32).nullish() }).prefault({}))
    .output(funnelOutput)
    .query(({ ctx, input }) => getFunnel(ctx.seller.id, input)),
  // What is left to set up (contact address, payout wallet, card processor, webhooks): the overview's checklist.
  setupChecklist: sellerProcedure.output(setupChecklistOutput).query(({ ctx }) => getSetupChecklist(ctx.seller.id)),
  margin: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(marginOutput)
    .query(({ ctx, input }) => getMargin(ctx.seller.id, input)),
});
