// Forwards one call to the service's upstream: signed with the seller's secret (server/upstream-auth), with a
// timeout, hop-by-hop and payment headers stripped both ways. The upstream's status and body come back
// unchanged (errors included); the caller decides what to charge from the status.
import type { CatalogOperation } from "../catalog/catalog";
import { env } from "../env";
import { jsonBodyText } from "../http/respond";
import { inProcessFailure } from "../http/route";
import type { ParsedParameters } from "../contracts/operations";
import type { TextAnswer, ValidatedCall } from "../market/upstream/handle-market-upstream";
import { httpRequest } from "../lib/http-client";
import { originParts } from "../lib/origin-parts";
import { signUpstreamRequest } from "../upstream-auth/signature";

/** RFC 9110 section 7.6.1 connection-specific headers, plus what the HTTP client rewrites itself (length, decoding). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "content-length",
  "content-encoding",
  "host",
]);
/** Request headers worth passing on; everything else (payment proofs, credentials, cookies) stays here. */
const FORWARDED_REQUEST_HEADERS = ["accept", "accept-language", "user-agent", "x-request-id", "if-none-match"];
/** Response headers that are ours to set, never the upstream's. */
const DROPPED_RESPONSE_HEADERS = new Set([
  "svc-usage",
  "set-cookie",
  "payment-response",
  "x-payment-response",
  "payment-required",
  "svc-billing",
  "access-control-allow-origin",
  "access-control-expose-headers",
]);

/**
 * `text`: the body as the text it is the UTF-8 of, when the upstream made it from one (an in-process JSON answer): the
 * answer is passed on and hashed as that text, and `body` is encoded only if something reads it (a kept answer).
 */
export type UpstreamResult =
  | { type: "response"; status: number; headers: Headers; body: ArrayBuffer; text?: string; usageHeader: string | null; ms: number }
  | { type: "timeout"; ms: number }
  | { type: "unreachable"; detail: string; ms: number };

/**
 * Upstreams served by this very app (a service whose upstream URL is a path, like the built-in market data under
 * /upstream/market/v1) are called in process: the same handler the HTTP route runs, given the same signed request,
 * so the upstream still verifies the gateway's signature, but without a second trip through HTTP and the framework's
 * router. Registered by the app's route module (the composition root); anything not registered goes over HTTP.
 * One may also take a call the gateway validated (`direct`): the same answer without the signed request, or null to be
 * sent it after all.
 */
export type LocalUpstream = (req: Request) => Promise<Response>;
export type LocalDirect = (call: ValidatedCall) => Promise<TextAnswer | null>;
type Local = { handler: LocalUpstream; direct?: LocalDirect };
const localUpstreams = ((globalThis as unknown as { __localUpstreams?: Map<string, Local> }).__localUpstreams ??= new Map());

export function registerLocalUpstream(pathPrefix: string, handler: LocalUpstream, direct?: LocalDirect): void {
  localUpstreams.set(pathPrefix, { handler, direct });
}

function localHandlerFor(url: URL): Local | null {
  if (url.hostname !== "127.0.0.1" || url.port !== String(env().PORT)) return null;
  for (const [prefix, local] of localUpstreams) if (url.pathname.startsWith(prefix)) return local;
  return null;
}

/** Run the in-process upstream with the same deadline a fetch would have (then a 504; its late answer is dropped). */
async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const utf8 = new TextEncoder();

/** An answer known as text: its bytes (the text's UTF-8, as a Response sends it) made once, only if read. */
function textResponse(status: number, headers: Headers, text: string, usageHeader: string | null, ms: number): UpstreamResult {
  let bytes: ArrayBuffer | undefined;
  return {
    type: "response",
    status,
    headers,
    text,
    get body() {
      return (bytes ??= utf8.encode(text).buffer as ArrayBuffer);
    },
    usageHeader,
    ms,
  };
}

export function upstreamUrl(op: CatalogOperation, pathParams: Record<string, string>, search: string): URL {
  const base = op.service.upstreamUrl.startsWith("/") ? `http://127.0.0.1:${env().PORT}${op.service.upstreamUrl}` : op.service.upstreamUrl;
  const path = op.upstreamPath.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(pathParams[name] ?? ""));
  return new URL(`${base.replace(/\/$/, "")}${path}${search}`);
}

export async function proxyUpstream(opts: {
  url: URL;
  method: string;
  signingSecret: string;
  requestHeaders: Headers;
  /** Public origin of the original request: the upstream builds absolute links (artifact URLs) from it. */
  origin: string;
  /** The call's parameters as the gateway validated them, for an in-process upstream that takes them (`direct`). */
  parameters?: ParsedParameters;
  timeoutMs?: number;
}): Promise<UpstreamResult> {
  const t0 = performance.now();
  const timeoutMs = opts.timeoutMs ?? env().GATEWAY_UPSTREAM_TIMEOUT_MS;
  const keep = (name: string) => !HOP_BY_HOP.has(name) && !DROPPED_RESPONSE_HEADERS.has(name);
  try {
    const local = localHandlerFor(opts.url);
    if (local?.direct && opts.parameters) {
      const call = { method: opts.method, url: opts.url, signingSecret: opts.signingSecret, origin: opts.origin, parameters: opts.parameters };
      // A thrown error is answered as the signed request's would be (inProcess), from the same headers less the signature.
      const answer = await withDeadline(
        local
          .direct(call)
          .catch((err: unknown) => inProcessFailure(err, { method: opts.method, url: opts.url.href, headers: new Headers(forwardedHeaders(opts)) })),
        timeoutMs,
      );
      if (answer === "timeout") return { type: "timeout", ms: performance.now() - t0 };
      if (answer instanceof Response) return passOnLocal(answer, keep, t0);
      if (answer) {
        const out = new Headers();
        for (const [k, v] of answer.headers) if (keep(k)) out.append(k, v);
        const usageHeader = answer.headers.find(([k]) => k === "svc-usage")?.[1] ?? null;
        return textResponse(answer.status, out, answer.text, usageHeader, performance.now() - t0);
      }
    }
    const headers = {
      ...forwardedHeaders(opts),
      ...signUpstreamRequest(opts.signingSecret, { method: opts.method, path: opts.url.pathname, query: opts.url.searchParams }),
    };
    if (local) {
      const res = await withDeadline(local.handler(new Request(opts.url, { method: opts.method, headers })), timeoutMs);
      if (res === "timeout") return { type: "timeout", ms: performance.now() - t0 };
      return passOnLocal(res, keep, t0);
    }
    const res = await httpRequest(opts.url, { method: opts.method, headers, timeoutMs });
    const out = new Headers();
    let usageHeader: string | null = null;
    for (const [k, v] of res.headers) {
      if (k === "svc-usage") usageHeader ??= v;
      if (keep(k)) out.append(k, v);
    }
    const body = res.body.buffer.slice(res.body.byteOffset, res.body.byteOffset + res.body.byteLength) as ArrayBuffer;
    return { type: "response", status: res.status, headers: out, body, usageHeader, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) return { type: "timeout", ms };
    return { type: "unreachable", detail: e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e), ms };
  }
}

/** What an upstream is told of the request: the headers worth passing on, and the public origin it was made to. */
function forwardedHeaders(opts: { requestHeaders: Headers; origin: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const v = opts.requestHeaders.get(name);
    if (v) headers[name] = v;
  }
  const { host, proto } = originParts(opts.origin);
  headers["x-forwarded-host"] = host;
  headers["x-forwarded-proto"] = proto;
  return headers;
}

/** An in-process upstream's Response: a JSON answer's text without reading its body's stream; any other answer read. */
async function passOnLocal(res: Response, keep: (name: string) => boolean, t0: number): Promise<UpstreamResult> {
  const out = new Headers();
  res.headers.forEach((v, k) => keep(k) && out.append(k, v));
  const usageHeader = res.headers.get("svc-usage");
  const text = jsonBodyText(res);
  if (text !== undefined) return textResponse(res.status, out, text, usageHeader, performance.now() - t0);
  const body = await res.arrayBuffer();
  return { type: "response", status: res.status, headers: out, body, usageHeader, ms: performance.now() - t0 };
}
