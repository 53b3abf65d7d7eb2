import { getArchiveCoverage } from "../../market/archive/get-archive-coverage";
import { archiveFeeds } from "../../market/operations";
import { router, sellerProcedure } from "../init";
import { archiveCoverageOutput } from "../outputs/misc";

export const archiveRouter = router({
  // The archive is global, but the console is for sellers only: same tier as every other console read. Its feeds are the
  // operations registry's, as the paid archive catalog's are.
  coverage: sellerProcedure.output(archiveCoverageOutput).query(() => getArchiveCoverage({ feeds: archiveFeeds() })),
});
