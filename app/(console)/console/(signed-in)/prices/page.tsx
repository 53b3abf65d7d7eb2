import { Prefetched } from "../../_components/prefetch";
import { Prices } from "./_components/prices";

// /console/prices - per-request prices of the meters: each change previewed and confirmed, then live at once in discovery and the gateway
export default function PricesPage() {
  return (
    <Prefetched
      load={(trpc, qc) => [qc.prefetchQuery(trpc.catalog.overview.queryOptions()), qc.prefetchQuery(trpc.audit.list.queryOptions({ targetType: "price" }))]}
    >
      <Prices />
    </Prefetched>
  );
}
