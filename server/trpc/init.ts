// tRPC for the seller console. Procedure tiers narrow the context: `sellerProcedure` is the only way to
// seller data, and it carries the seller id from the signed session, never from input.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Session } from "next-auth";
import { isAppError, type ErrorCode } from "../http/errors";

export type TrpcContext = { session: Session | null };

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
        appError: isAppError(cause) ? cause.toBody() : null,
      },
    };
  },
});

const APP_TO_TRPC: Partial<Record<ErrorCode, TRPCError["code"]>> = {
  not_found: "NOT_FOUND",
  invalid_request: "BAD_REQUEST",
  seller_not_found: "NOT_FOUND",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  payment_not_refundable: "CONFLICT",
  payment_provider_unavailable: "SERVICE_UNAVAILABLE",
};

/** Domain AppErrors become tRPC errors with the same code in data.appError. */
const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok && isAppError(res.error.cause)) {
    const app = res.error.cause;
    throw new TRPCError({ code: APP_TO_TRPC[app.code] ?? "BAD_REQUEST", message: app.detail ?? app.code, cause: app });
  }
  return res;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors);

export const sellerProcedure = publicProcedure.use(({ ctx, next }) => {
  const user = ctx.session?.user;
  if (!user || user.kind !== "seller" || !user.sellerId) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in as a seller" });
  return next({ ctx: { ...ctx, seller: { id: user.sellerId, userId: user.id, email: user.email } } });
});
