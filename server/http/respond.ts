import { AppError, type ErrorCode } from "../errors";

/** Headers browsers may read from our responses (x402 and MPP clients running in a page need them). */
export const EXPOSED_HEADERS = [
  "PAYMENT-REQUIRED",
  "PAYMENT-RESPONSE",
  "X-PAYMENT-RESPONSE",
  "WWW-Authenticate",
  "Payment-Receipt",
  "svc-billing",
  "svc-usage-error",
  "svc-payment-id",
  "Link",
  "ETag",
  "Retry-After",
  "X-Request-Id",
].join(", ");

export const ALLOWED_REQUEST_HEADERS = [
  "Authorization",
  "Content-Type",
  "X-PAYMENT",
  "PAYMENT-SIGNATURE",
  "SVC-Agent-Authorization",
  "svc-payment-id",
  "Idempotency-Key",
  "If-None-Match",
  // MCP's Streamable HTTP (browser-based MCP clients preflight /mcp).
  "Mcp-Protocol-Version",
].join(", ");

export function corsHeaders(): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  };
}

const bigintAsString = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/** JSON with BigInt written as strings (money never reaches JSON as a float). */
export function stringifyJson(body: unknown, pretty = false): string {
  const indent = pretty ? 2 : undefined;
  try {
    // Most bodies hold no BigInt, and JSON.stringify without a replacer is several times faster; with one, it throws
    // a TypeError, and the body is written again with BigInt as strings.
    return JSON.stringify(body, null, indent);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(body, bigintAsString, indent);
  }
}

// The text each json() answer was made from: a caller in this process that passes an answer on (the gateway, its
// in-process upstream's) takes the text instead of reading the body's stream, chunk by chunk through promises.
const jsonTexts = new WeakMap<Response, string>();

/** The content type of every JSON answer json() makes. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", JSON_CONTENT_TYPE);
  const text = stringifyJson(body);
  const res = new Response(text, { ...init, headers });
  jsonTexts.set(res, text);
  return res;
}

/**
 * The text of an answer json() made, while its body is unread: a Response sends its text as UTF-8 (TextEncoder), so
 * these are the bytes its stream would give. Undefined for any other answer (read its body instead).
 */
export function jsonBodyText(res: Response): string | undefined {
  return res.bodyUsed ? undefined : jsonTexts.get(res);
}

// Which AppError an answer was rendered from, for the access log and the metrics (the route wrapper reads it; the
// Response is all it gets back from a handler that rendered its refusal instead of throwing it).
const renderedErrors = new WeakMap<Response, AppError>();

export function errorResponse(err: AppError, requestId?: string): Response {
  const headers: Record<string, string> = { "cache-control": "no-store", ...err.headers };
  if (requestId) headers["x-request-id"] = requestId;
  const res = json(err.toBody(), { status: err.status, headers });
  renderedErrors.set(res, err);
  return res;
}

/**
 * A refusal answered with a body and headers of its own (a refused payment proof with its fresh offers), counted and
 * logged as the AppError it renders.
 */
export function refusalResponse(err: AppError, body: Record<string, unknown>, headers: Headers): Response {
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  const res = json(body, { status: err.status, headers });
  renderedErrors.set(res, err);
  return res;
}

/** The AppError `res` was rendered from by errorResponse or refusalResponse, if it was. */
export function renderedError(res: Response): AppError | undefined {
  return renderedErrors.get(res);
}

export function error(code: ErrorCode, opts?: ConstructorParameters<typeof AppError>[1]): Response {
  return errorResponse(new AppError(code, opts));
}

/**
 * A streamed text download (the console's CSV exports): each chunk is produced only when the client reads the
 * previous one (pull), so a large export holds one chunk in memory, not the whole file. `no-store`: the file holds
 * the seller's data and must not sit in a shared cache.
 */
export function streamedDownload(chunks: AsyncIterable<string>, opts: { contentType: string; fileName: string }): Response {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    // No read-ahead: the stream asks for a chunk only once the last one was taken.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": opts.contentType,
      "content-disposition": `attachment; filename="${opts.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "private, no-store",
    },
  });
}
