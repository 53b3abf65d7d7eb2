import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { paymentFilterFrom, summaryInput } from "../payments/_components/payment-filter-input";
import { UsagePage } from "./_components/usage-page";

// /console/usage - calls served on prepaid credit (draws), apart from the money on Payments; usage per meter per day
export default async function Usage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filter = paymentFilterFrom(await urlParams(searchParams), { usage: true });
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchInfiniteQuery(trpc.payments.list.infiniteQueryOptions(filter, { getNextPageParam: (last) => last.nextCursor })),
        qc.prefetchQuery(trpc.payments.summary.queryOptions(summaryInput(filter))),
        qc.prefetchQuery(trpc.payments.filterOptions.queryOptions()),
        qc.prefetchQuery(trpc.catalog.overview.queryOptions()),
        qc.prefetchQuery(trpc.analytics.meterUsage.queryOptions({ preset: "30d" })),
      ]}
    >
      <Suspense>
        <UsagePage />
      </Suspense>
    </Prefetched>
  );
}
