// The app's outgoing HTTP on the request path (the chain's JSON-RPC, a seller's upstream): node:http and node:https on
// keep-alive sockets, the whole answer read within one deadline. Not fetch: inside the app, fetch is Next.js's
// instrumented one, and with undici's Request, Response and AbortSignal objects it cost about 0.35 ms of CPU a
// request here (profiled with npm run profile:summary). Compressed answers (gzip, deflate, br) are asked for and
// decoded, as fetch does; redirects are not followed.
import http from "node:http";
import https from "node:https";
import { promisify } from "node:util";
import zlib from "node:zlib";

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};
const urls = new Map<string, URL>();
const MAX_CACHED_URLS = 1_000;

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

export type HttpAnswer = {
  status: number;
  /** Header name (lower case) and value pairs, in the order received; repeated headers repeat. */
  headers: [string, string][];
  /** Decoded when it came compressed (the content-encoding header is then left out of `headers`). */
  body: Buffer;
};

/** The deadline passed: the request was abandoned. `name` is "TimeoutError", as fetch's. */
export class HttpTimeoutError extends Error {
  override name = "TimeoutError";
}

function parse(url: string | URL): URL {
  if (typeof url !== "string") return url;
  let u = urls.get(url);
  if (!u) {
    if (urls.size >= MAX_CACHED_URLS) urls.clear();
    urls.set(url, (u = new URL(url)));
  }
  return u;
}

/** One request. Rejects on network errors and with HttpTimeoutError past `timeoutMs` (connecting, sending, reading). */
export function httpRequest(
  target: string | URL,
  opts: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<HttpAnswer> {
  const url = parse(target);
  const secure = url.protocol === "https:";
  const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br", ...opts.headers };
  if (opts.body !== undefined) headers["content-length"] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      reject(e);
    };
    const req = (secure ? https : http).request(url, { method: opts.method, agent: secure ? agents.https : agents.http, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        const raw = Buffer.concat(chunks);
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
        const decode = encoding ? decoders[encoding] : undefined;
        if (!decode) {
          settled = true;
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, headers: pairs, body: raw });
          return;
        }
        decode(raw).then((body) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, headers: pairs.filter(([k]) => k !== "content-encoding" && k !== "content-length"), body });
        }, fail);
      });
    });
    const deadline = setTimeout(() => {
      const e = new HttpTimeoutError(`no answer from ${url.host} within ${opts.timeoutMs} ms`);
      req.destroy(e);
      fail(e);
    }, opts.timeoutMs);
    req.on("error", fail);
    req.end(opts.body);
  });
}
