import { Prefetched } from "../../_components/prefetch";
import { PlansAndMeters } from "./_components/plans-and-meters";

// /console/plans - the catalog's plans (create, change terms, retire: each previewed and confirmed), meters (free
// included units) and the operations they price, with usage per meter
export default function PlansPage() {
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchQuery(trpc.catalog.overview.queryOptions()),
        qc.prefetchQuery(trpc.catalog.plans.queryOptions()),
        qc.prefetchQuery(trpc.analytics.meterUsage.queryOptions({ preset: "30d" })),
      ]}
    >
      <PlansAndMeters />
    </Prefetched>
  );
}
