// Where a webhook may be sent. A seller types the URL, and our servers then POST to it from inside the deployment's
// network: an address on a private, loopback, link-local (cloud metadata at 169.254.169.254) or otherwise reserved range
// would let that seller reach what only we can reach. So URLs must be https and resolve only to public addresses,
// checked when the endpoint is saved and again, against the address actually connected to, on every attempt (a name can
// be re-pointed after it was saved). WEBHOOK_ALLOW_PRIVATE_URLS (the demo and tests) lifts both rules.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { AppError } from "../errors";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, bits, "ipv6");

/** Whether `ip` is an ordinary public unicast address (IPv4-mapped IPv6 is judged by its IPv4 address). */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return isPublicAddress(mapped[1]!);
    return !blocked.check(ip, "ipv6");
  }
  return false;
}

function refuse(detail: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_webhook_url", detail, extra: { parameter: "url" } });
}

/** The URL a seller typed, checked (AppError invalid_request otherwise); `allowPrivate`: http and any address. */
export function checkWebhookUrl(input: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw refuse("not a URL");
  }
  if (input.length > 2048) throw refuse("at most 2048 characters");
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw refuse("must be an https:// URL");
  if (url.username || url.password) throw refuse("must not carry a user name or password (use the signature to authenticate us)");
  if (url.hash) throw refuse("must not have a #fragment");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (isIP(host) && !isPublicAddress(host)) throw refuse("must not point at a private, loopback or reserved address");
    if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local") || !host.includes("."))
      throw refuse("must be a public host name");
  }
  return url.toString();
}

/**
 * A dns.lookup for the HTTP client that refuses private addresses: the check is made on the address the socket will
 * connect to, so a name re-pointed at an internal address after it was saved is still refused.
 */
export function publicOnlyLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const usable = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (!usable.length) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`);
        e.code = "EADDRNOTPUBLIC";
        return callback(e, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
