import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { paymentFilterFrom, summaryInput } from "./_components/payment-filter-input";
import { PaymentsPage } from "./_components/payments-page";

// /console/payments - every payment (money that moved), filterable (state, rail, operation, payer, search, days), sortable,
// with totals of the filtered set and a CSV export
export default async function Payments({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filter = paymentFilterFrom(await urlParams(searchParams));
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchInfiniteQuery(trpc.payments.list.infiniteQueryOptions(filter, { getNextPageParam: (last) => last.nextCursor })),
        qc.prefetchQuery(trpc.payments.summary.queryOptions(summaryInput(filter))),
        qc.prefetchQuery(trpc.payments.totals.queryOptions()),
        qc.prefetchQuery(trpc.payments.filterOptions.queryOptions()),
        qc.prefetchQuery(trpc.catalog.overview.queryOptions()),
      ]}
    >
      <Suspense>
        <PaymentsPage />
      </Suspense>
    </Prefetched>
  );
}
