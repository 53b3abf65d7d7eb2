import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { sessionRenewal } from "@/server/auth/renew-session";
import { currentSession } from "@/server/auth/session";
import { boundedRequest } from "@/server/http/parse";
import { observed, pageOrigin } from "@/server/http/route";
import { logger } from "@/server/observability/logger";
import { appRouter } from "@/server/trpc/root";

// /api/trpc/* - the seller console's API (every procedure scoped to the signed-in seller)
// A console mutation's input is a few KiB: its body is read within 1 MiB before tRPC reads it (413 beyond).
const handler = observed("/api/trpc/[trpc]", async (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req: await boundedRequest(req, 1024 * 1024),
    router: appRouter,
    createContext: async ({ resHeaders }) => ({
      session: await currentSession(),
      origin: () => pageOrigin(req.headers),
      renewSession: sessionRenewal(req.headers, resHeaders),
    }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") logger().error({ err: error.cause ?? error, procedure: path }, "console procedure failed");
    },
  }),
);

export { handler as GET, handler as POST };
