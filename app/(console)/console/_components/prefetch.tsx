// Server-rendered first data: a console page's server component prefetches the queries its client components will ask
// for (same procedures, same inputs, built from the same URL), and hands them over dehydrated, so the page paints with
// its data instead of "Loading…". Calls the router in process with the signed-in session; nothing goes over HTTP.
import "server-only";
import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { cache, type ReactNode } from "react";
import { currentSession } from "@/server/auth/session";
import { appRouter } from "@/server/trpc/root";
import { makeQueryClient } from "./query-client";

/** One QueryClient per request (React's cache), shared by every prefetch of the request. */
export const getQueryClient = cache(makeQueryClient);

export const serverTrpc = createTRPCOptionsProxy({
  ctx: async () => ({ session: await currentSession() }),
  router: appRouter,
  queryClient: getQueryClient,
});

/** Run the page's prefetches (in parallel), then render its client part with their results in the cache. */
export async function Prefetched({ children, load }: { children: ReactNode; load: (trpc: typeof serverTrpc, qc: QueryClient) => Promise<unknown>[] }) {
  const qc = getQueryClient();
  await Promise.all(load(serverTrpc, qc));
  return <HydrationBoundary state={dehydrate(qc)}>{children}</HydrationBoundary>;
}

/** A page's search params as the URLSearchParams its client components read. */
export async function urlParams(searchParams: Promise<Record<string, string | string[] | undefined>>): Promise<URLSearchParams> {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) {
    if (typeof v === "string") out.set(k, v);
    else if (Array.isArray(v) && v[0] !== undefined) out.set(k, v[0]);
  }
  return out;
}
