// The one guard for outbound requests a seller's configuration points at (webhook URLs, identity providers' JWKS URLs):
// our servers connect from inside the deployment's network, so an address on a private, loopback, link-local (cloud
// metadata at 169.254.169.254) or otherwise reserved range would let a seller, or whoever can make us fetch for one,
// reach what only we can reach. The address judged is the one the socket connects to (a DNS lookup that refuses), so a
// name re-pointed after it was saved is still refused. IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d in
// any spelling, translated ::ffff:0:a.b.c.d) are judged by that IPv4 address; IPv4-compatible ::a.b.c.d is refused
// outright (deprecated, never routed); other IPv6 addresses are public unless a reserved range holds them.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

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
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, bits, "ipv6");

/** The eight 16-bit groups of an IPv6 address (any spelling, dotted tail included), or null. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    if (isIP(dotted[1]!) !== 4) return null;
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    s = `${s.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array(fill).fill("0"), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/** Whether `ip` is an ordinary public unicast address. Anything that is not an IP address is not. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  const family = isIP(bare.replace(/%.*$/, ""));
  if (family === 4) return !blocked.check(bare, "ipv4");
  if (family !== 6) return false;
  const g = ipv6Groups(bare);
  if (!g) return false;
  const embedded = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated): the IPv4 address they name.
  if (zeros(5) && g[5] === 0xffff) return isPublicAddress(embedded);
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return isPublicAddress(embedded);
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d: none is a public unicast address.
  if (zeros(6)) return false;
  const canonical = g.map((x) => x.toString(16)).join(":");
  return !blocked.check(canonical, "ipv6");
}

/**
 * A dns.lookup for node:http that refuses addresses that are not public (unless `allowPrivate`): the check is made on
 * the address the socket will connect to.
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

/** Whether a URL's host, if it is an IP literal, may be connected to (names are judged at lookup). */
export function literalHostAllowed(url: URL, allowPrivate: boolean): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return allowPrivate || !isIP(host) || isPublicAddress(host);
}

/**
 * GET a URL through the guard (the fetch signature jose's remote JWKS takes): public addresses only unless
 * `allowPrivate`, no redirects followed, at most `maxBytes` read, within the caller's abort signal.
 */
export function guardedFetch(opts: { allowPrivate: boolean; maxBytes: number }) {
  return (target: string, init: { headers?: Headers; signal?: AbortSignal }): Promise<Response> =>
    new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(target);
      } catch (e) {
        return reject(e);
      }
      if (url.protocol !== "https:" && !(opts.allowPrivate && url.protocol === "http:")) return reject(new Error("only https URLs are fetched"));
      if (!literalHostAllowed(url, opts.allowPrivate)) return reject(new Error(`${url.hostname} is not a public address`));
      const headers: Record<string, string> = {};
      init.headers?.forEach((v, k) => (headers[k] = v));
      const req = (url.protocol === "https:" ? https : http).request(
        url,
        {
          method: "GET",
          agent: false,
          headers,
          signal: init.signal,
          lookup: publicOnlyLookup(opts.allowPrivate) as unknown as typeof import("node:dns").lookup,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > opts.maxBytes) return req.destroy(new Error(`the answer is larger than ${opts.maxBytes} bytes`));
            chunks.push(c);
          });
          res.on("error", reject);
          res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0 })));
        },
      );
      req.on("error", reject);
      req.end();
    });
}
