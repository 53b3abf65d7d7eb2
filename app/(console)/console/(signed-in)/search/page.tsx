import { Suspense } from "react";
import { Prefetched, urlParams } from "../../_components/prefetch";
import { SearchResults } from "./_components/search-results";

// /console/search?q= - the shell's search: payments, wallets, credentials, people, plans, meters, operations
export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = (await urlParams(searchParams)).get("q") ?? "";
  return (
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.search.global.queryOptions({ q })), qc.prefetchQuery(trpc.catalog.overview.queryOptions())]}>
      <Suspense>
        <SearchResults />
      </Suspense>
    </Prefetched>
  );
}
