// Request bodies, read within a limit on the wire: the bytes are counted as they stream in, and reading stops at the
// limit (413 payload_too_large), whatever Content-Length says or whether there is one (a chunked body); a body that
// does not arrive within HTTP_BODY_TIMEOUT_MS is abandoned (408 request_timeout). Nothing reads a whole body first.
import { env } from "../env";
import { AppError } from "../errors";

/** JSON bodies of the agent-facing API (registration, claims, purchases, the quote, payUrl). */
export const JSON_BODY_LIMIT = 64 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", { detail: `the body is larger than ${limit} bytes` });
}

/** The body's bytes, at most `limit` of them (413 beyond), within the body deadline (408 past it). */
export async function readBody(req: Request, limit: number, timeoutMs: number = env().HTTP_BODY_TIMEOUT_MS): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (declared !== null && (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > limit)) {
    // Not read at all: the declared length alone says no (or is not a length).
    if (Number(declared) > limit) throw tooLarge(limit);
    throw new AppError("invalid_request", { detail: "Content-Length is not a length" });
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") {
        void reader.cancel().catch(() => {});
        throw new AppError("request_timeout", { detail: `the body did not arrive within ${Math.round(timeoutMs / 1000)} s` });
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The body as UTF-8 text, within `limit` bytes. Bytes that are not UTF-8 are 400 (never stored or compared as mangled text). */
export async function readText(req: Request, limit: number): Promise<string> {
  const bytes = await readBody(req, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("invalid_request", { detail: "the body is not UTF-8" });
  }
}

/**
 * The same request with its body read within `limit` (a copy whose body is those bytes), for handlers that read the
 * body themselves (next-auth, tRPC, the MCP transport): they then never read more than the limit.
 */
export async function boundedRequest(req: Request, limit: number): Promise<Request> {
  if (req.method === "GET" || req.method === "HEAD") return req;
  const body = await readBody(req, limit);
  return new Request(req.url, { method: req.method, headers: req.headers, body: body as BodyInit, signal: req.signal });
}

/** Read a JSON body (at most 64 KiB). Malformed JSON is `invalid_request` (SERVICE.md part 7). */
export async function readJson(req: Request, { optional = false } = {}): Promise<unknown> {
  const text = await readText(req, JSON_BODY_LIMIT);
  if (text.trim() === "") {
    if (optional) return {};
    throw new AppError("invalid_request", { detail: "a JSON body is required" });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", { detail: "the body is not valid JSON" });
  }
}

/** Read an application/x-www-form-urlencoded body (OAuth token endpoint), at most 64 KiB. */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded"))
    throw new AppError("invalid_request", { detail: "the body must be application/x-www-form-urlencoded" });
  return new URLSearchParams(await readText(req, JSON_BODY_LIMIT));
}
