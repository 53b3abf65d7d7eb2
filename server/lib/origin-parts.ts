// A public origin's parts, parsed once per origin (a storefront has one or two), for what the paid path derives from
// it on every call: the realm a rail's challenge names, the X-Forwarded-Host and -Proto an upstream is told.
import { memoByKey } from "./memo-by-key";

export type OriginParts = { readonly host: string; readonly hostname: string; readonly proto: string };

export const originParts = memoByKey((origin): OriginParts => {
  const u = new URL(origin);
  return Object.freeze({ host: u.host, hostname: u.hostname, proto: u.protocol.replace(":", "") });
});
