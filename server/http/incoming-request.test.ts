// What happens to a request before Next.js sees it, on a real node:http server with the real subscriber: the peer is
// stamped, and a path Next.js could not percent-decode arrives decodable, its bytes taken literally.
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_HEADER } from "./client-address";
import { decodableTarget, installIncomingRequestHooks } from "./incoming-request";

describe("decodableTarget", () => {
  it.each([
    ["/api/v1/basis%zz", "/api/v1/basis%25zz"],
    ["/api/v1/basis%", "/api/v1/basis%25"],
    ["/api%/v1/basis?limit=5", "/api%25/v1/basis?limit=5"],
    ["/api/v1/aggregates/AAPL%E0%A4%A", "/api/v1/aggregates/AAPL%25E0%25A4%25A"],
    ["/api/v1/aggregates/AAPL%C0%AF", "/api/v1/aggregates/AAPL%25C0%25AF"],
    ["/x%2F%zz?q=%zz", "/x%252F%25zz?q=%zz"],
  ])("%s -> %s", (target, repaired) => {
    expect(decodableTarget(target)).toBe(repaired);
    // The path now decodes, to exactly the bytes that were sent.
    expect(decodeURIComponent(repaired.split("?")[0]!)).toBe(target.split("?")[0]);
  });

  it.each(["/api/v1/basis", "/api/v1/aggregates/AAPL%2F..", "/a%20b", "/%E2%82%AC", "/basis?limit=%zz", "*", "http://x/%zz"])("leaves %s alone", (target) =>
    expect(decodableTarget(target)).toBeNull(),
  );
});

describe("on a real HTTP server", () => {
  let server: http.Server;
  let port = 0;
  let seen: { url?: string; peer?: string } = {};

  beforeAll(async () => {
    installIncomingRequestHooks();
    server = http.createServer((req, res) => {
      seen = { url: req.url, peer: String(req.headers[PEER_HEADER]) };
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** Written on a socket: the target arrives exactly as given. */
  const send = (target: string) =>
    new Promise<void>((resolve, reject) => {
      const s = net.connect(port, "127.0.0.1", () => s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      s.on("data", () => {});
      s.on("close", () => resolve());
      s.on("error", reject);
    });

  it("hands the listener a decodable path and the stamped peer", async () => {
    await send("/api/v1/backtest/AAPL%zz?years=1");
    expect(seen.url).toBe("/api/v1/backtest/AAPL%25zz?years=1");
    expect(seen.peer).toMatch(/ (::ffff:)?127\.0\.0\.1$/);
    await send("/api/v1/basis");
    expect(seen.url).toBe("/api/v1/basis");
  });
});
