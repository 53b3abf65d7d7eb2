import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { cardPayersInput, payersInput } from "./_components/customers-input";
import { Customers } from "./_components/customers";

// /console/customers - paying wallets (spend, calls, last call), people (claimed humans and the credit their credentials share) and agent credentials
export default async function CustomersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await urlParams(searchParams);
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchQuery(trpc.customers.payers.queryOptions(payersInput(params))),
        qc.prefetchQuery(trpc.customers.cardPayers.queryOptions(cardPayersInput(params))),
        qc.prefetchInfiniteQuery(trpc.customers.humans.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor })),
        qc.prefetchInfiniteQuery(trpc.customers.credentials.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor })),
      ]}
    >
      <Suspense>
        <Customers />
      </Suspense>
    </Prefetched>
  );
}
