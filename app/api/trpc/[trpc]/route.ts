import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { currentSession } from "@/server/auth/session";
import { appRouter } from "@/server/trpc/root";

// /api/trpc/* - the seller console's API (every procedure scoped to the signed-in seller)
const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => ({ session: await currentSession() }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`trpc ${path} failed:`, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
