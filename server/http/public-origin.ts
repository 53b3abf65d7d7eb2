// Where a request is addressed and which origin the links written for it use. Links come from configuration only:
//  - a Host (or, with TRUST_PROXY, X-Forwarded-Host) that is not a host is refused (400), never parsed leniently: a
//    value such as `localhost:3000@evil.example` named the demo seller (up to the colon) and put evil.example into a
//    402's payUrl as the URL's real host;
//  - the origin is PUBLIC_URL's, with the host the request addressed only once that host has resolved to a storefront
//    (a host in the seller's configuration, on PUBLIC_URL's scheme and port), so one deployment serves several
//    storefronts' hosts without any link naming a host nobody configured;
//  - forwarded headers count only with TRUST_PROXY (the incoming-request hook drops a client's otherwise);
//  - production requires PUBLIC_URL (server/env.ts); only a development server takes scheme and host from the request.
import { isIP } from "node:net";
import { env } from "../env";
import { AppError } from "../errors";

/** A host as RFC 3986 allows it in Host: a DNS-style name, an IPv4 address or a bracketed IPv6 address, and a port. */
export type AddressedHost = { hostname: string; port: string | null; host: string };

const LABEL = "[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?";
const NAME = new RegExp(`^(?:${LABEL})(?:\\.${LABEL})*\\.?$`);

/** The value as a host, or null: no userinfo, path, spaces, percent-escapes or control bytes; a port from 1 to 65535. */
export function parseHost(value: string | null | undefined): AddressedHost | null {
  if (!value || value.length > 300) return null;
  let hostname: string;
  let port: string | null = null;
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    if (end < 0) return null;
    hostname = value.slice(0, end + 1);
    if (isIP(hostname.slice(1, -1)) !== 6) return null;
    const rest = value.slice(end + 1);
    if (rest) {
      if (!rest.startsWith(":")) return null;
      port = rest.slice(1);
    }
  } else {
    const colon = value.indexOf(":");
    hostname = colon < 0 ? value : value.slice(0, colon);
    if (colon >= 0) port = value.slice(colon + 1);
    if (hostname.length > 253 || !NAME.test(hostname)) return null;
  }
  if (port !== null && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return null;
  const lower = hostname.toLowerCase();
  return { hostname: lower, port, host: port === null ? lower : `${lower}:${port}` };
}

export type Addressed = { host: AddressedHost; proto: "http" | "https"; forwarded: boolean };

function invalidHost(header: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_host", detail: `the ${header} header is not a valid host (a name or address, and a port)` });
}

/** The host a request is addressed to (and its scheme, when forwarded by a trusted proxy); 400 when it is not a host. */
export function addressedHost(headers: Headers, url?: URL): Addressed {
  const e = env();
  const forwardedHost = e.TRUST_PROXY ? headers.get("x-forwarded-host") : null;
  if (forwardedHost) {
    const host = parseHost(forwardedHost.trim());
    if (!host) throw invalidHost("X-Forwarded-Host");
    const proto = headers.get("x-forwarded-proto")?.trim().toLowerCase();
    return { host, proto: proto === "http" ? "http" : "https", forwarded: true };
  }
  const raw = headers.get("host") ?? url?.host ?? null;
  const host = parseHost(raw);
  if (!host) throw invalidHost("Host");
  return { host, proto: url?.protocol === "https:" ? "https" : "http", forwarded: false };
}

/**
 * The origin links use for a request addressed to `a`. `storefrontHost`: that host resolved to a storefront (the host is
 * configuration); before that, or for a host that names none, only PUBLIC_URL is a source.
 */
export function linkOrigin(a: Addressed, storefrontHost: boolean): string {
  const pub = env().PUBLIC_URL ? new URL(env().PUBLIC_URL!) : null;
  if (a.forwarded) return `${a.proto}://${a.host.host}`;
  if (!pub) return `${a.proto}://${a.host.host}`;
  if (!storefrontHost || a.host.hostname === pub.hostname.toLowerCase()) return pub.origin;
  return `${pub.protocol}//${a.host.hostname}${pub.port ? `:${pub.port}` : ""}`;
}
