// What this process does to every HTTP request before Next.js sees it: one subscriber on Node's
// `http.server.request.start` diagnostics channel, which the HTTP server publishes before its 'request' event, installed
// once per process by instrumentation.ts (so any way of starting the app has it: `next start`, the demo, the e2e server).
//   1. The TCP peer's address is stamped in a header only this process can write (client-address.ts).
//   2. A path Next.js cannot percent-decode (`%`, `%zz`, `%E0%A4%A`: malformed escapes or bytes that are not UTF-8) is
//      answered by Next.js with a text/plain 500 before any route runs, which tells a client to retry (SERVICE.md part 7).
//      Such a path is made decodable by escaping its `%` signs, so it reaches the routes with its bytes taken literally,
//      as the gateway already takes a path parameter it cannot decode: no route has a `%` in it, so the answer is the
//      JSON 404, or the 400 of a parameter that is not valid. It can only name what it named, never another route.
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { PEER_HEADER, peerStamp } from "./client-address";

const INSTALLED = Symbol.for("storefront.incomingRequestHooks");

export function installIncomingRequestHooks(): void {
  const g = globalThis as { [INSTALLED]?: boolean };
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  diagnosticsChannel.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    // Overwrites whatever the client sent under this name.
    request.headers[PEER_HEADER] = peerStamp(socket.remoteAddress);
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
