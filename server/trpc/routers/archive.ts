import { getArchiveCoverage } from "../../market/archive/get-archive-coverage";
import { router, sellerProcedure } from "../init";
import { archiveCoverageOutput } from "../outputs/misc";

export const archiveRouter = router({
  // The archive is global, but the console is for sellers only: same tier as every other console read.
  coverage: sellerProcedure.output(archiveCoverageOutput).query(() => getArchiveCoverage()),
});
