// Compression on the wire, read as raw bytes from the built app (fetch would decode them): on by default, answers and
// pages gzip-encoded for a client that accepts it; HTTP_COMPRESSION=off (behind a proxy or CDN that compresses) sends
// the same documents as they are. A 402 is the exception: `Cache-Control: no-transform`, never encoded (create-challenge.ts).
import http from "node:http";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { startAppInstance } from "../stack";

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const decoded = (r: Raw) => (r.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(r.body) : r.body).toString();

test("by default a route's answer and a page are gzip-encoded for a client that accepts it, and the same without", async ({ baseURL }) => {
  const plain = await raw(baseURL!, "/manifest.json");
  expect(plain.headers["content-encoding"]).toBeUndefined();
  const gz = await raw(baseURL!, "/manifest.json", { "accept-encoding": "gzip" });
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(gz.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
  expect(JSON.parse(decoded(gz))).toEqual(JSON.parse(plain.body.toString()));

  const page = await raw(baseURL!, "/", { "accept-encoding": "gzip" });
  expect(page.headers["content-encoding"]).toBe("gzip");
  expect(decoded(page)).toMatch(/<html/i);

  // The unpaid 402: sent as it is, whatever the client accepts; the compression honours its no-transform.
  const challenge = await raw(baseURL!, "/api/v1/aggregates/AAPL", { "accept-encoding": "gzip" });
  expect(challenge.status).toBe(402);
  expect(challenge.headers["cache-control"]).toBe("no-store, no-transform");
  expect(challenge.headers["content-encoding"]).toBeUndefined();
  expect(JSON.parse(challenge.body.toString()).error).toBe("payment_required");
});

test.describe("HTTP_COMPRESSION=off", () => {
  let other: { url: string; stop: () => void } | undefined;
  test.afterAll(() => other?.stop());

  test("the same documents, never encoded, whatever the client accepts", async ({ baseURL }) => {
    test.setTimeout(60_000);
    other = await startAppInstance(Number(process.env.E2E_PORT ?? 3100) + 8, { HTTP_COMPRESSION: "off" });
    for (const path of ["/manifest.json", "/api/v1/aggregates/AAPL", "/"]) {
      const off = await raw(other.url, path, { "accept-encoding": "gzip, deflate, br" });
      const on = await raw(baseURL!, path, { "accept-encoding": "gzip" });
      expect(off.status).toBe(on.status);
      expect(off.headers["content-encoding"]).toBeUndefined();
      // The 402 is never encoded (the first test); everything else is where compression is on.
      expect(on.headers["content-encoding"]).toBe(path.startsWith("/api/") ? undefined : "gzip");
      if (path === "/manifest.json") expect(off.body.toString()).toBe(decoded(on).replace(baseURL!, other.url).replaceAll(baseURL!, other.url));
    }
  });
});
