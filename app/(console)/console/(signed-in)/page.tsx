import { Suspense } from "react";
import { Prefetched, urlParams } from "../_components/prefetch";
import { rangeFrom } from "../_components/range";
import { Overview } from "./_overview/overview";

// /console - the overview: revenue (today, month to date, 7 and 30 days), revenue per day beside the previous period, by
// operation and rail, top customers, failures, conversion and margin
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await urlParams(searchParams);
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchQuery(trpc.analytics.headline.queryOptions()),
        qc.prefetchQuery(trpc.catalog.overview.queryOptions()),
        qc.prefetchQuery(trpc.analytics.setupChecklist.queryOptions()),
        qc.prefetchQuery(trpc.analytics.overview.queryOptions(rangeFrom(params))),
        qc.prefetchQuery(trpc.analytics.topCustomers.queryOptions(rangeFrom(params))),
        qc.prefetchQuery(trpc.customers.cardPayers.queryOptions(rangeFrom(params))),
      ]}
    >
      <Suspense>
        <Overview />
      </Suspense>
    </Prefetched>
  );
}
