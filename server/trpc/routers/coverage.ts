import { coverageOfOperations } from "../../market/operations";
import { getMarketProviders } from "../../market/providers/get-market-providers";
import { router, sellerProcedure } from "../init";
import { operationsCoverageOutput } from "../outputs/misc";

export const coverageRouter = router({
  // What each data operation holds, offline and live, as discovery states it before anyone pays. Global (the registry's
  // operations, like the archive's feeds), for signed-in sellers only.
  operations: sellerProcedure.output(operationsCoverageOutput).query(() => ({ running: getMarketProviders().kind, operations: coverageOfOperations() })),
});
