// What a proof must have been made for: one seller's method, path and canonical query. A sha256 (not secret): the
// rails that carry it through the client (MPP's opaque challenge data) protect it with their challenge HMAC.
import { createHash } from "node:crypto";

export function requestBinding(r: { sellerId: string; method: string; path: string; canonicalQuery: string }): string {
  return createHash("sha256").update(`${r.sellerId}\n${r.method.toUpperCase()}\n${r.path}\n${r.canonicalQuery}`).digest("base64url");
}
