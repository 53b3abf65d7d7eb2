// tRPC for the seller console. Procedure tiers narrow the context: `sellerProcedure` is the only way to
// seller data, and it carries the seller id from the signed session, never from input.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Session } from "next-auth";
import { AppError, isAppError } from "../errors";
import { isInvalidTextError } from "../http/invalid-text";
import { findMemberRole } from "../team/team.queries";

/**
 * `origin`: the console's origin as configuration allows for the request (server/http pageOrigin), for links sent by email.
 * `renewSession`: issue the request's own session again with the account's new session version (server/auth/renew-session.ts),
 * so a change that ends every other session of the account keeps the one that made it.
 */
export type TrpcContext = {
  session: Session | null;
  origin?: () => Promise<string>;
  renewSession?: (userId: string, sessionVersion: number) => Promise<void>;
};

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // An unexpected error's own words (a database's message, a stack) go to the log, never to the page.
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      // An input the procedure's schema refused reads as its schema's words, one line, never zod's JSON.
      message: internal ? "unexpected error; it was logged" : cause instanceof ZodError ? zodWords(cause) : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
        appError: isAppError(cause) ? cause.toBody() : null,
      },
    };
  },
});

/** A refused input in words: each issue's message, after the field it is about when there is one. */
function zodWords(e: ZodError): string {
  return e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
}

/** The tRPC code for an AppError, from its HTTP status: one error table (server/errors.ts), no second map. */
export function trpcCodeFor(status: number): TRPCError["code"] {
  switch (status) {
    case 400:
      return "BAD_REQUEST";
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 405:
      return "METHOD_NOT_SUPPORTED";
    case 408:
      return "TIMEOUT";
    case 409:
      return "CONFLICT";
    case 402:
      return "PAYMENT_REQUIRED";
    case 413:
      return "PAYLOAD_TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 429:
      return "TOO_MANY_REQUESTS";
    case 501:
      return "NOT_IMPLEMENTED";
    case 502:
      return "BAD_GATEWAY";
    case 503:
      return "SERVICE_UNAVAILABLE";
    case 504:
      return "GATEWAY_TIMEOUT";
    default:
      return status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
  }
}

/** Domain AppErrors become tRPC errors with the same code in data.appError. */
const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok && isAppError(res.error.cause)) {
    const app = res.error.cause;
    throw new TRPCError({ code: trpcCodeFor(app.status), message: app.detail ?? app.code, cause: app });
  }
  // A NUL or bytes that are not UTF-8 in an input, refused by the database: the seller's 400, in our words.
  if (!res.ok && isInvalidTextError(res.error.cause ?? res.error)) {
    const app = new AppError("invalid_request", { reason: "invalid_characters", detail: "the input carries characters that are not text (such as NUL)" });
    throw new TRPCError({ code: "BAD_REQUEST", message: app.detail!, cause: app });
  }
  return res;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors);

/** Any member of a seller's team (an owner or a viewer): reads, and what a person does to their own account. */
export const memberProcedure = publicProcedure.use(({ ctx, next }) => {
  const user = ctx.session?.user;
  if (!user || user.kind !== "seller" || !user.sellerId) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in as a seller" });
  return next({ ctx: { ...ctx, seller: { id: user.sellerId, userId: user.id, email: user.email } } });
});

/**
 * The seller's data: every member reads it; a change (any mutation) is an owner's. The role is read from the database on
 * each change, not from the session, so a member made a viewer cannot change anything from their next request on. A
 * new mutation on this tier is owner-only without anyone remembering to say so.
 */
export const sellerProcedure = memberProcedure.use(async ({ ctx, type, next }) => {
  if (type === "mutation") {
    const role = await findMemberRole(ctx.seller.id, ctx.seller.userId);
    if (role !== "owner") throw new TRPCError({ code: "FORBIDDEN", message: "only an owner of this storefront can change it; a viewer reads only" });
  }
  return next();
});
