import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { auditInput } from "./_components/audit-input";
import { AuditLog } from "./_components/audit-log";

// /console/audit - every audited change (prices, plans, meters, refunds, identity providers, settings): who, when, what, before and after
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await urlParams(searchParams);
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchInfiniteQuery(trpc.audit.list.infiniteQueryOptions(auditInput(params), { getNextPageParam: (last) => last.nextCursor })),
        qc.prefetchQuery(trpc.audit.filterOptions.queryOptions()),
      ]}
    >
      <Suspense>
        <AuditLog />
      </Suspense>
    </Prefetched>
  );
}
