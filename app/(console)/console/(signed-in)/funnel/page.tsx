import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { funnelInput } from "./_components/funnel-input";
import { Funnel } from "./_components/funnel";

// /console/funnel - the 402 funnel: 402s issued -> answered -> verified -> served -> paid, each a subset of the one before
export default async function FunnelPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await urlParams(searchParams);
  return (
    <Prefetched
      load={(trpc, qc) => [qc.prefetchQuery(trpc.analytics.funnel.queryOptions(funnelInput(params))), qc.prefetchQuery(trpc.catalog.overview.queryOptions())]}
    >
      <Suspense>
        <Funnel />
      </Suspense>
    </Prefetched>
  );
}
