import { Prefetched } from "../../_components/prefetch";
import { Refunds } from "./_components/refunds";

// /console/refunds - the refunds recorded, and how to record one
export default function RefundsPage() {
  return (
    <Prefetched
      load={(trpc, qc) => [qc.prefetchInfiniteQuery(trpc.payments.refunds.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }))]}
    >
      <Refunds />
    </Prefetched>
  );
}
