import { AppError } from "@/server/errors";
import { route } from "@/server/http/route";

// Any path no route answers: a JSON 404 (never an HTML error page), whatever the method.
const notFound = route((ctx) => {
  throw new AppError("not_found", { detail: `nothing at ${ctx.req.method} ${ctx.url.pathname}; see /openapi.json` });
});

export { notFound as GET, notFound as HEAD, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
