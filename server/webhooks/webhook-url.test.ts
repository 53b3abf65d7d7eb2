import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "./post-webhook";
import { checkWebhookUrl, isPublicAddress } from "./webhook-url";

describe("where webhooks may go", () => {
  it("public unicast addresses only: no private, loopback, link-local (metadata), shared or reserved ranges", () => {
    for (const ip of ["93.184.216.34", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "224.0.0.1",
      "nope",
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });

  it("https URLs of public hosts, without credentials; http and private hosts only when allowed", () => {
    expect(checkWebhookUrl("https://hooks.example.com/storefront?x=1", false)).toBe("https://hooks.example.com/storefront?x=1");
    for (const bad of [
      "http://hooks.example.com/",
      "https://169.254.169.254/latest",
      "https://10.0.0.5/",
      "https://localhost/",
      "https://user:pw@hooks.example.com/",
      "https://intranet/",
      "ftp://x.example.com/",
      "not a url",
    ])
      expect(() => checkWebhookUrl(bad, false), bad).toThrow(expect.objectContaining({ code: "invalid_request", reason: "invalid_webhook_url" }));
    expect(checkWebhookUrl("http://127.0.0.1:8080/hooks", true)).toBe("http://127.0.0.1:8080/hooks");
  });

  it("a public IPv6 literal is an address like any other; IPv4-embedded forms of private addresses are refused", () => {
    expect(checkWebhookUrl("https://[2606:4700::1111]/hooks", false)).toBe("https://[2606:4700::1111]/hooks");
    for (const bad of ["https://[::7f00:1]/", "https://[::ffff:0:7f00:1]/", "https://[::ffff:a9fe:a9fe]/", "https://[::1]/", "https://[fd00::1]/"])
      expect(() => checkWebhookUrl(bad, false), bad).toThrow(expect.objectContaining({ reason: "invalid_webhook_url" }));
  });
});

describe("postWebhook", () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      res.writeHead(200).end("x".repeat(5_000));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("refuses to connect to a private address unless allowed, checked on the address connected to", async () => {
    const opts = { headers: {}, body: "{}", timeoutMs: 2_000 };
    expect(await postWebhook(`http://127.0.0.1:${port}/`, { ...opts, allowPrivate: false })).toMatchObject({ type: "failed" });
    // A name is resolved and its addresses checked before connecting: localhost resolves to loopback only.
    expect(await postWebhook(`https://localhost:${port}/`, { ...opts, allowPrivate: false })).toMatchObject({
      type: "failed",
      error: expect.stringContaining("no public address"),
    });
    expect(hits).toBe(0);
    const ok = await postWebhook(`http://localhost:${port}/`, { ...opts, allowPrivate: true });
    expect(ok).toMatchObject({ type: "answered", status: 200 });
    // Only the first KiB of the answer is kept.
    expect(ok.type === "answered" && ok.response.length).toBe(1024);
  });
});
