import { z } from "zod";
import { rangeInput } from "../../analytics/date-range";
import { getFunnel } from "../../analytics/get-funnel";
import { getMargin } from "../../analytics/get-margin";
import { getMeterUsage } from "../../analytics/get-meter-usage";
import { getOverview } from "../../analytics/get-overview";
import { router, sellerProcedure } from "../init";
import { funnelOutput, marginOutput, meterUsageOutput, overviewOutput } from "../outputs/analytics";

export const analyticsRouter = router({
  overview: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(overviewOutput)
    .query(({ ctx, input }) => getOverview(ctx.seller.id, input)),
  meterUsage: sellerProcedure
    .input(rangeInput.prefault({ preset: "30d" }))
    .output(meterUsageOutput)
    .query(({ ctx, input }) => getMeterUsage(ctx.seller.id, input)),
  funnel: sellerProcedure
    .input(rangeInput.extend({ operation: z.string().max(64).nullish(), rail: z.string().max(32).nullish() }).prefault({}))
    .output(funnelOutput)
    .query(({ ctx, input }) => getFunnel(ctx.seller.id, input)),
  margin: sellerProcedure
    .input(rangeInput.prefault({}))
    .output(marginOutput)
    .query(({ ctx, input }) => getMargin(ctx.seller.id, input)),
});
