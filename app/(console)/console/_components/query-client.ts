// One QueryClient configuration for the browser and for the server's prefetch, so what the server puts in the page
// (dehydrated with superjson, as tRPC sends it) is read back the same way, and fresh enough not to refetch at once.
import { QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: 1 },
      // Only finished queries go into the page: every prefetch is awaited before the page renders.
      dehydrate: { serializeData: superjson.serialize },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
