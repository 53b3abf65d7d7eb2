import { z } from "zod";
import { searchConsole } from "../../analytics/search-console";
import { SEARCH_MAX_LENGTH } from "../../payment-reports/payment-filter";
import { router, sellerProcedure } from "../init";
import { searchOutput } from "../outputs/misc";

export const searchRouter = router({
  // The shell's search box: a payment id, wallet, transaction, card processor id, credential, email, plan, meter or operation.
  global: sellerProcedure
    .input(z.object({ q: z.string().max(SEARCH_MAX_LENGTH) }))
    .output(searchOutput)
    .query(({ ctx, input }) => searchConsole(ctx.seller.id, input.q)),
});
