import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { rangeFrom } from "../../_components/range";
import { Margin } from "./_components/margin";

// /console/margin - revenue per operation and rail against what serving it cost (gas, fees) where known
export default async function MarginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await urlParams(searchParams);
  return (
    <Prefetched
      load={(trpc, qc) => [qc.prefetchQuery(trpc.analytics.margin.queryOptions(rangeFrom(params))), qc.prefetchQuery(trpc.catalog.overview.queryOptions())]}
    >
      <Suspense>
        <Margin />
      </Suspense>
    </Prefetched>
  );
}
