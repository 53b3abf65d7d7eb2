// Tests only: the app's tRPC router called in process, as a seller (or a human, or nobody) would call it.
import { createCallerFactory } from "../trpc/init";
import { appRouter } from "../trpc/root";

export const createCaller = createCallerFactory(appRouter);

/** The context next-auth would give a signed-in `kind` user (sellers carry their seller id). */
export function sessionFor(userId: string, sellerId: string, kind: "seller" | "human" = "seller") {
  return { session: { user: { id: userId, email: "x@test", kind, sellerId }, expires: new Date(Date.now() + 60_000).toISOString() } };
}
