// Who the client is: the TCP peer as this process stamped it (a real node:http server, the real diagnostics channel
// subscriber), never what the client wrote; behind N trusted proxies, the Nth X-Forwarded-For entry from the right.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalAddress, clientAddress, forwardedAddress, PEER_HEADER, peerAddress } from "./client-address";
import { installIncomingRequestHooks } from "./incoming-request";

describe("canonicalAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["[::ffff:7f00:1]", "127.0.0.1"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
  ])("%s is %s", (raw, canonical) => expect(canonicalAddress(raw)).toBe(canonical));

  it.each(["", "unknown", "_hidden", "example.com", "1.2.3", "256.1.1.1", "[::1", "1.2.3.4.5", "x".repeat(500)])("%s is not an address", (raw) =>
    expect(canonicalAddress(raw)).toBeNull(),
  );
});

describe("forwardedAddress", () => {
  const xff = "198.51.100.1, 203.0.113.5, 192.0.2.10";
  it("counts hops from the right", () => {
    expect(forwardedAddress(xff, 1)).toBe("192.0.2.10");
    expect(forwardedAddress(xff, 2)).toBe("203.0.113.5");
    expect(forwardedAddress(xff, 3)).toBe("198.51.100.1");
  });
  it("takes the leftmost entry when there are fewer entries than hops", () => {
    expect(forwardedAddress("203.0.113.5, 192.0.2.10", 3)).toBe("203.0.113.5");
  });
  it("is null without the header, with hops 0, or when that entry is not an address", () => {
    expect(forwardedAddress(null, 1)).toBeNull();
    expect(forwardedAddress(xff, 0)).toBeNull();
    expect(forwardedAddress("203.0.113.5, unknown", 1)).toBeNull();
  });
  it("reads only as far as it must from the right of a huge header", () => {
    const huge = `${"10.0.0.1, ".repeat(5000)}192.0.2.10`;
    expect(forwardedAddress(huge, 1)).toBe("192.0.2.10");
  });
});

describe("the peer stamp on a real HTTP server", () => {
  let server: http.Server;
  let port = 0;
  let seen: Headers | undefined;

  beforeAll(async () => {
    installIncomingRequestHooks();
    server = http.createServer((req, res) => {
      // What Next.js hands a route handler: the request's headers object as a Headers.
      seen = new Headers(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)] as [string, string]));
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  async function send(headers: Record<string, string>): Promise<Headers> {
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path: "/", headers }, (res) => res.resume().on("end", resolve));
      req.on("error", reject);
      req.end();
    });
    return seen!;
  }

  it("hops = 0: the TCP peer, whatever X-Forwarded-For or our own header name the client sends", async () => {
    const h = await send({ "x-forwarded-for": "198.51.100.77", [PEER_HEADER]: "anything 198.51.100.78" });
    expect(peerAddress(h)).toBe("127.0.0.1");
    expect(clientAddress(h, 0)).toBe("127.0.0.1");
    expect(h.get("x-forwarded-for")).toBe("198.51.100.77");
  });

  it("hops = N: the Nth entry from the right; a spoofed leftmost entry changes nothing", async () => {
    const h = await send({ "x-forwarded-for": "198.51.100.77, 203.0.113.5, 192.0.2.10" });
    expect(clientAddress(h, 1)).toBe("192.0.2.10");
    expect(clientAddress(h, 2)).toBe("203.0.113.5");
    // A proxy chain that did not append (misconfigured): the peer, never nothing.
    expect(clientAddress(await send({}), 1)).toBe("127.0.0.1");
  });

  it("a stamp the client forged (it cannot know this process's prefix) is no address", () => {
    expect(peerAddress(new Headers({ [PEER_HEADER]: "guess 203.0.113.9" }))).toBeNull();
    expect(peerAddress(new Headers())).toBeNull();
  });
});
