import { Prefetched } from "../../_components/prefetch";
import { ArchiveCoverage } from "./_components/archive-coverage";

// /console/archive - the market data archive's coverage per feed and entity
export default function ArchivePage() {
  return (
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.archive.coverage.queryOptions())]}>
      <ArchiveCoverage />
    </Prefetched>
  );
}
