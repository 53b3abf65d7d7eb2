// What this process does to every HTTP request before Next.js sees it: one subscriber on Node's
// `http.server.request.start` diagnostics channel, which the HTTP server publishes before its 'request' event, installed
// once per process by instrumentation.ts (so any way of starting the app has it: `next start`, the demo, the e2e server).
//   1. The TCP peer's address is stamped in a header only this process can write (client-address.ts); a client's
//      X-Forwarded-Host/Proto are dropped unless TRUST_PROXY; the server's request and header timeouts are bounded.
//   2. A path Next.js cannot percent-decode (`%`, `%zz`, `%E0%A4%A`: malformed escapes or bytes that are not UTF-8) is
//      answered by Next.js with a text/plain 500 before any route runs, which tells a client to retry (SERVICE.md part 7).
//      Such a path is made decodable by escaping its `%` signs, so it reaches the routes with its bytes taken literally,
//      as the gateway already takes a path parameter it cannot decode: no route has a `%` in it, so the answer is the
//      JSON 404, or the 400 of a parameter that is not valid. It can only name what it named, never another route.
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { env } from "../env";
import { PEER_HEADER, peerStamp } from "./client-address";

const BOUNDED = Symbol.for("storefront.requestTimesBounded");

/** TRUST_PROXY, read once the environment is valid (instrumentation checks it before any request). */
function trustProxy(): boolean {
  try {
    return env().TRUST_PROXY;
  } catch {
    return false;
  }
}

/**
 * Node's own bounds on receiving a request, set once per server: the whole request (headers and body, read or not)
 * within HTTP_REQUEST_TIMEOUT_MS instead of Node's 300 s, headers within 20 s (or less). A slow sender cannot hold a
 * connection longer; routes that read a body also stop at HTTP_BODY_TIMEOUT_MS (./parse.ts).
 */
function boundRequestTimes(server: Server): void {
  const s = server as Server & { [BOUNDED]?: boolean };
  if (s[BOUNDED]) return;
  s[BOUNDED] = true;
  let ms = 30_000;
  try {
    ms = env().HTTP_REQUEST_TIMEOUT_MS;
  } catch {
    /* the default */
  }
  server.requestTimeout = ms;
  server.headersTimeout = Math.min(ms, 20_000);
}

const INSTALLED = Symbol.for("storefront.incomingRequestHooks");

export function installIncomingRequestHooks(): void {
  const g = globalThis as { [INSTALLED]?: boolean };
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  diagnosticsChannel.subscribe("http.server.request.start", (message) => {
    const { request, socket, server } = message as { request: IncomingMessage; socket: Socket; server?: Server };
    if (server) boundRequestTimes(server);
    // Overwrites whatever the client sent under this name.
    request.headers[PEER_HEADER] = peerStamp(socket.remoteAddress);
    // Forwarded headers are a trusted proxy's word only: without TRUST_PROXY a client's are dropped here, before Next.js
    // (which keeps a client's X-Forwarded-Host and passes it on, to next-auth among others) or any route reads them.
    if (!trustProxy()) {
      delete request.headers["x-forwarded-host"];
      delete request.headers["x-forwarded-proto"];
    }
    const repaired = request.url ? decodableTarget(request.url) : null;
    if (repaired !== null) request.url = repaired;
  });
}

/**
 * A request target whose path does not percent-decode, with every `%` of its path escaped (`%` -> `%25`); null when it
 * decodes as it is (the usual case: one `includes` and nothing else), or is not a path ("*", an absolute URL).
 */
export function decodableTarget(target: string): string | null {
  if (!target.startsWith("/")) return null;
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!path.includes("%")) return null;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return path.replaceAll("%", "%25") + (q < 0 ? "" : target.slice(q));
  }
}
