// Who the client is, for per-client limits (docs/rate-limits.md): the TCP peer's address, or, behind load balancers
// the operator declares (TRUSTED_PROXY_HOPS = N), the address the outermost of them saw: the Nth entry from the right
// of X-Forwarded-For.
//
// Next.js does not give a route handler the socket, and the X-Forwarded-For it fills from the socket is set only when
// the client sent none (`??=` in next/dist/server/base-server.js), so a client-sent value cannot be told from Next's.
// So this process stamps every request itself, before Next.js sees it (incoming-request.ts, installed by
// instrumentation.ts): the socket's remote address in a header of ours, prefixed with a random value this process made
// and never sends anywhere. A client can send that header, but not the prefix, so a value without it is ignored. It
// works with any way of starting the app (`next start`, the demo, the e2e server); a process that never installed it
// (a test calling handlers directly) has no peer address.
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { env } from "../env";

export const PEER_HEADER = "x-storefront-peer";
const NONCE_KEY = Symbol.for("storefront.peerStampNonce");
type StampState = { [NONCE_KEY]?: string };

/** At most this many X-Forwarded-For entries are looked at (from the right); a client can send thousands. */
const MAX_FORWARDED_ENTRIES = 64;

/** The value of PEER_HEADER for a socket's remote address (the process's prefix is made on first use). */
export function peerStamp(remoteAddress: string | undefined): string {
  const g = globalThis as StampState;
  g[NONCE_KEY] ??= randomBytes(18).toString("base64url");
  return `${g[NONCE_KEY]} ${remoteAddress ?? ""}`;
}

/** The TCP peer's address, if this process stamped the request; never a value the client wrote. */
export function peerAddress(headers: Headers): string | null {
  const nonce = (globalThis as StampState)[NONCE_KEY];
  const stamp = headers.get(PEER_HEADER);
  if (!nonce || !stamp || stamp.length > 200 || !stamp.startsWith(`${nonce} `)) return null;
  return canonicalAddress(stamp.slice(nonce.length + 1));
}

/**
 * An IP address as one spelling: IPv4 dotted, an IPv4-mapped IPv6 address as its IPv4, IPv6 lower case and
 * compressed; brackets, a port and an IPv6 zone dropped. Anything else (a name, "unknown", junk) is null.
 */
export function canonicalAddress(raw: string): string | null {
  let s = raw.trim();
  if (!s || s.length > 100) return null;
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end < 0) return null;
    s = s.slice(1, end);
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(":"));
  s = s.replace(/%[0-9a-z._~-]*$/i, "");
  const kind = isIP(s);
  if (kind === 4) return s;
  if (kind !== 6) return null;
  const host = new URL(`http://[${s}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}

/**
 * The entry `hops` from the right of X-Forwarded-For (1 = the rightmost, which the nearest proxy appended), as a
 * canonical address. With fewer entries than hops, the leftmost (every entry there was appended by a proxy of ours
 * that the request did pass). Null when the header is absent or that entry is not an IP address.
 */
export function forwardedAddress(forwardedFor: string | null, hops: number): string | null {
  if (!forwardedFor || hops < 1) return null;
  // Read from the right: a client's own entries come first and may be long.
  const entries: string[] = [];
  let end = forwardedFor.length;
  while (entries.length < Math.min(hops, MAX_FORWARDED_ENTRIES)) {
    const comma = end > 0 ? forwardedFor.lastIndexOf(",", end - 1) : -1;
    entries.push(forwardedFor.slice(comma + 1, end));
    if (comma < 0) break;
    end = comma;
  }
  const entry = entries[Math.min(hops, entries.length) - 1];
  return entry === undefined ? null : canonicalAddress(entry);
}

/**
 * The client's address: the TCP peer, or with `hops` trusted proxies (TRUSTED_PROXY_HOPS) the Nth X-Forwarded-For entry
 * from the right, falling back to the peer when that entry is missing or not an address. Null only when neither is
 * known (a request this process did not stamp, and no usable forwarded entry).
 */
export function clientAddress(headers: Headers, hops: number = env().TRUSTED_PROXY_HOPS): string | null {
  if (hops > 0) {
    const forwarded = forwardedAddress(headers.get("x-forwarded-for"), hops);
    if (forwarded) return forwarded;
  }
  return peerAddress(headers);
}
