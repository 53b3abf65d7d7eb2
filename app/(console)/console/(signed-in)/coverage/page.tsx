import { Prefetched } from "../../_components/prefetch";
import { OperationsCoverage } from "./_components/operations-coverage";

// /console/coverage - what each data operation holds, offline and live, as agents read it before paying
export default function CoveragePage() {
  return (
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.coverage.operations.queryOptions())]}>
      <OperationsCoverage />
    </Prefetched>
  );
}
