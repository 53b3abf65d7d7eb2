import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { Refunds } from "./_components/refunds";
import { rangeProblem, refundsInput } from "./_components/refunds-input";

// /console/refunds - the refunds recorded (status, reason, the card's refund id), filtered, with totals and a CSV
export default async function RefundsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const input = refundsInput(await urlParams(searchParams));
  return (
    <Prefetched
      load={(trpc, qc) =>
        rangeProblem(input)
          ? []
          : [
              qc.prefetchInfiniteQuery(trpc.payments.refunds.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor })),
              qc.prefetchQuery(trpc.payments.refundsSummary.queryOptions(input)),
              qc.prefetchQuery(trpc.catalog.overview.queryOptions()),
            ]
      }
    >
      <Suspense>
        <Refunds />
      </Suspense>
    </Prefetched>
  );
}
