import { describe, expect, it } from "vitest";
import { withEnvForTests } from "../env";
import { addressedHost, linkOrigin, parseHost } from "./public-origin";

describe("parseHost", () => {
  it.each(["localhost:3000", "127.0.0.1", "shop.example.com:443", "[::1]:3000", "[2606:4700::1111]", "Data.Example.COM."])("%s is a host", (h) =>
    expect(parseHost(h)).not.toBeNull(),
  );
  it.each([
    "localhost:3000@evil.example",
    "evil.example/x",
    "a b",
    "[::1",
    "[::1]x",
    "[1.2.3.4]",
    "host:0",
    "host:99999",
    "host:",
    "%00",
    "h\u0000",
    "",
    "-x.example",
  ])("%j is not", (h) => expect(parseHost(h)).toBeNull());
});

describe("links come from configuration", () => {
  const h = (o: Record<string, string>) => new Headers(o);

  it("without TRUST_PROXY a client's X-Forwarded-Host and -Proto are not read", async () => {
    await withEnvForTests({ TRUST_PROXY: "off", PUBLIC_URL: "https://data.example.com" }, async () => {
      const a = addressedHost(h({ host: "data.example.com", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }));
      expect(a).toMatchObject({ forwarded: false, host: { host: "data.example.com" } });
      expect(linkOrigin(a, true)).toBe("https://data.example.com");
    });
  });

  it("with PUBLIC_URL, a host that resolved to no storefront never reaches a link; one that did keeps PUBLIC_URL's scheme and port", async () => {
    await withEnvForTests({ TRUST_PROXY: "off", PUBLIC_URL: "https://data.example.com:8443" }, async () => {
      const other = addressedHost(h({ host: "evil.example" }));
      expect(linkOrigin(other, false)).toBe("https://data.example.com:8443");
      const storefront = addressedHost(h({ host: "second.example:80" }));
      expect(linkOrigin(storefront, true)).toBe("https://second.example:8443");
    });
  });

  it("with TRUST_PROXY the proxy's X-Forwarded-Host is validated like Host (400 when it is not a host)", async () => {
    await withEnvForTests({ TRUST_PROXY: "on" }, async () => {
      expect(addressedHost(h({ host: "10.0.0.5", "x-forwarded-host": "shop.example", "x-forwarded-proto": "https" }))).toMatchObject({
        forwarded: true,
        proto: "https",
        host: { host: "shop.example" },
      });
      expect(() => addressedHost(h({ host: "10.0.0.5", "x-forwarded-host": "shop.example@evil.example" }))).toThrow(
        expect.objectContaining({ code: "invalid_request", reason: "invalid_host" }),
      );
    });
  });
});
