// The one wrapper every agent-facing route handler goes through: seller resolution, CORS, JSON errors in
// the spec's shape (never an HTML page or a stack trace), 405s for wrong methods, request ids, logging.
import { randomUUID } from "node:crypto";
import { getCatalog, type Catalog } from "../catalog/catalog";
import type { SellerRow } from "../catalog/catalog.queries";
import { resolveSeller } from "../catalog/resolve-seller";
import { AppError, isAppError } from "../errors";
import { clientAddress } from "./client-address";
import { hasControlCharacters, isInvalidTextError } from "./invalid-text";
import { addressedHost, linkOrigin, type Addressed } from "./public-origin";
import { observeRequest, routeTemplate } from "../observability/observe-request";
import { redactHeaders } from "../observability/redact";
import { ALLOWED_REQUEST_HEADERS, corsHeaders, errorResponse, renderedError } from "./respond";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type RouteContext = {
  req: Request;
  url: URL;
  params: Record<string, string | string[]>;
  requestId: string;
  /** The storefront addressed by the Host header (404 seller_not_found otherwise). Memoised per request. */
  seller(): Promise<SellerRow>;
  catalog(): Promise<Catalog>;
  /**
   * Public origin for links: PUBLIC_URL, with the storefront host the request addressed once it resolved to one
   * (./public-origin.ts); a development server without PUBLIC_URL uses the request's own scheme and host.
   */
  readonly origin: string;
  /** The client's IP address (the TCP peer, or per TRUSTED_PROXY_HOPS), for per-client limits; null if unknown. */
  clientAddress: string | null;
};

export type Handler = (ctx: RouteContext) => Promise<Response> | Response;
type NextHandler = (req: Request, segment: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * Longest request target (path and query) any route takes, the request line within the 8 KiB common proxies allow.
 * The longest a free route's bounds allow is the guide's `goal` (500 characters, 4.5 KB when each is a percent-encoded
 * three-byte character); a longer target that still fits reaches its route, which names the parameter past its bound
 * in a 400 (an OpenAPI `q` of 5,000 characters, say). A 402 repeats its request in its headers, so a priced route has
 * a tighter bound (MAX_PAID_TARGET in server/gateway/paid-call.ts).
 */
export const MAX_REQUEST_TARGET = 8192;

/** The seller host of a request (X-Forwarded-Host only with TRUST_PROXY), validated: 400 when it is not a host. */
function sellerHost(addressed: Addressed): string {
  return addressed.host.host;
}

/**
 * For pages people open on a storefront's host (the card checkout, the claim page): the storefront the request's headers
 * address and its public origin, found the way route handlers find them. A Host that is not a host: AppError
 * invalid_request; an unknown host: AppError seller_not_found.
 */
export async function storefrontOfHeaders(headers: Headers): Promise<{ catalog: Catalog; origin: string }> {
  const addressed = addressedHost(headers);
  const catalog = await getCatalog(await resolveSeller(sellerHost(addressed)));
  return { catalog, origin: linkOrigin(addressed, true) };
}

/**
 * The origin for links in what a page sends (a reset email): the storefront's, when the page's host is one; otherwise
 * PUBLIC_URL (a development server: the validated Host). Never a client's forwarded headers without TRUST_PROXY.
 */
export async function pageOrigin(headers: Headers): Promise<string> {
  const addressed = addressedHost(headers);
  try {
    await resolveSeller(sellerHost(addressed));
    return linkOrigin(addressed, true);
  } catch (e) {
    if (isAppError(e) && e.code === "seller_not_found") return linkOrigin(addressed, false);
    throw e;
  }
}

/**
 * 414 for a request target longer than MAX_REQUEST_TARGET (the path and query as sent); 400 for a path that decodes to
 * a NUL or another control character (no id, ticker or name has one), unless the route's own contracts check every
 * path parameter (`pathParamsByContract`: the paid gateway, whose 400 names the parameter).
 */
function checkTarget(url: URL, pathParamsByContract: boolean): void {
  if (url.pathname.length + url.search.length > MAX_REQUEST_TARGET)
    throw new AppError("uri_too_long", { detail: `the request target (path and query) is longer than ${MAX_REQUEST_TARGET} bytes` });
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* taken literally: incoming-request.ts made it decodable */
  }
  if (!pathParamsByContract && hasControlCharacters(path))
    throw new AppError("invalid_request", { reason: "invalid_characters", detail: "the path carries a control character (such as NUL)" });
}

/** `adapter`: a handler that is not one of ours (tRPC's): its answer keeps its own headers (no CORS added), under `adapter.route`. */
type RouteOptions = { adapter?: { route: string }; pathParamsByContract?: boolean };

async function run(handler: Handler, req: Request, rawParams: Record<string, string | string[]>, opts: RouteOptions = {}): Promise<Response> {
  const { adapter } = opts;
  const t0 = performance.now();
  const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
  let response: Response;
  // The seller, if the handler asked for it: the access line names it (never resolved just for the log).
  let sellerP: Promise<SellerRow> | undefined;
  try {
    // Before anything reads the URL: a Host that is not a host is 400, never a 500 or a lenient parse.
    // A request without a Host header (HTTP/1.0, an in-process call) is addressed to its URL's host.
    const url = new URL(req.url);
    const addressed = addressedHost(req.headers, url);
    checkTarget(url, !!opts.pathParamsByContract);
    let catalogP: Promise<Catalog> | undefined;
    let resolved = false;
    const ctx: RouteContext = {
      req,
      url,
      params: rawParams,
      requestId,
      // Read when a link is written: the addressed host only once it resolved to a storefront (public-origin.ts).
      get origin() {
        return linkOrigin(addressed, resolved);
      },
      clientAddress: clientAddress(req.headers),
      seller: () =>
        (sellerP ??= resolveSeller(sellerHost(addressed)).then((s) => {
          resolved = true;
          return s;
        })),
      catalog: () => (catalogP ??= ctx.seller().then(getCatalog)),
    };
    response = await handler(ctx);
  } catch (err) {
    response = failureResponse(err, req, requestId);
  }
  response = withRouteHeaders(response, requestId, !adapter);
  const { headers } = response;
  const sellerId = sellerP
    ? await sellerP.then(
        (s) => s.id,
        () => null,
      )
    : null;
  const path = safePath(req.url);
  try {
    observeRequest({
      requestId,
      method: req.method,
      route: adapter?.route ?? routeTemplate(path, rawParams),
      path,
      status: response.status,
      durationMs: performance.now() - t0,
      sellerId,
      headers,
      error: renderedError(response),
      userAgent: req.headers.get("user-agent"),
    });
  } catch {
    // The log line and the counters never cost a client its answer.
  }
  return response;
}

const CORS = Object.entries(corsHeaders());

function addRouteHeaders(headers: Headers, requestId: string, cors: boolean): void {
  if (cors) for (const [k, v] of CORS) if (!headers.has(k)) headers.set(k, v);
  headers.set("x-request-id", requestId);
}

/**
 * The answer with CORS (unless an adapter's) and the request id: set on its own headers, so neither they nor its body
 * are copied into a new Response on every request. A Response whose headers are immutable (a fetched one, a redirect)
 * throws on the first change, before any, and is copied as before.
 */
function withRouteHeaders(response: Response, requestId: string, cors: boolean): Response {
  try {
    addRouteHeaders(response.headers, requestId, cors);
    return response;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
  addRouteHeaders(copy.headers, requestId, cors);
  return copy;
}

/** What the error line names of a request: a Request, or an in-process call's method, URL and headers. */
type RequestSeen = Pick<Request, "method" | "url" | "headers">;

/** A thrown error as the answer: an AppError in the spec's shape; anything else a logged 500 that names the request id. */
function failureResponse(err: unknown, req: RequestSeen, requestId: string): Response {
  if (isAppError(err)) return errorResponse(err, requestId);
  // A NUL or bytes that are not UTF-8, refused by the database wherever they reached it: the client's 400.
  if (isInvalidTextError(err))
    return errorResponse(
      new AppError("invalid_request", { reason: "invalid_characters", detail: "the request carries bytes that are not text (such as NUL)" }),
      requestId,
    );
  // Details go to the log, never to the client: the error line carries the request id the client is given. Written as
  // pino's (fields, message) through console.error, which the server turns into a JSON line (capture-console.ts).
  console.error({ req_id: requestId, err, req: { method: req.method, path: safePath(req.url), headers: redactHeaders(req.headers) } }, "request failed");
  return errorResponse(
    new AppError("internal_error", { detail: "unexpected error; quote request_id when reporting it", extra: { request_id: requestId } }),
    requestId,
  );
}

/**
 * A request handler called in process by the gateway (an upstream served by this app), with the same error answers
 * as over HTTP but without what only an HTTP client needs (request context, CORS, a request id header).
 */
export function inProcess(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    try {
      return await handler(req);
    } catch (err) {
      return inProcessFailure(err, req);
    }
  };
}

/** What an in-process handler's thrown error answers, as `inProcess` renders it (for a call made without a Request). */
export function inProcessFailure(err: unknown, req: RequestSeen): Response {
  return failureResponse(err, req, req.headers.get("x-request-id")?.slice(0, 64) || randomUUID());
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "?";
  }
}

/** Wrap one handler as a Next.js route handler. */
export function route(handler: Handler, opts: Omit<RouteOptions, "adapter"> = {}): NextHandler {
  return async (req, segment) => run(handler, req, (await segment?.params) ?? {}, opts);
}

/**
 * A route handler that does not go through `route()` (an adapter's own handler, such as tRPC's): the same request id,
 * access line and metrics, under a fixed route name; its headers otherwise as the adapter set them (no CORS: the console
 * API is same-origin).
 */
export function observed(routeName: string, handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return (req) => run(() => handler(req), req, {}, { adapter: { route: routeName } });
}

/**
 * All HTTP methods for a route file: the given handlers, a CORS preflight for OPTIONS, HEAD from GET, and a
 * JSON 405 for everything else. Use as `export const { GET, POST, ... } = methods({ GET: ... })`.
 */
export function methods(
  handlers: Partial<Record<Exclude<HttpMethod, "OPTIONS" | "HEAD">, Handler>>,
  opts: Omit<RouteOptions, "adapter"> = {},
): Record<HttpMethod, NextHandler> {
  const allowed = [...Object.keys(handlers), ...(handlers.GET ? ["HEAD"] : []), "OPTIONS"];
  const notAllowed: Handler = (ctx) => {
    throw new AppError("method_not_allowed", {
      detail: `${ctx.req.method} is not supported here; use ${allowed.filter((m) => m !== "OPTIONS").join(", ")}`,
      headers: { allow: allowed.join(", ") },
    });
  };
  const preflight: Handler = () =>
    new Response(null, {
      status: 204,
      headers: {
        allow: allowed.join(", "),
        "access-control-allow-methods": allowed.join(", "),
        "access-control-allow-headers": ALLOWED_REQUEST_HEADERS,
        "access-control-max-age": "600",
      },
    });
  const out = {} as Record<HttpMethod, NextHandler>;
  for (const m of HTTP_METHODS) {
    const h = m === "OPTIONS" ? preflight : m === "HEAD" ? (handlers.GET ?? notAllowed) : (handlers[m as keyof typeof handlers] ?? notAllowed);
    out[m] = route(h, opts);
  }
  return out;
}
