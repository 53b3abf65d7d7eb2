// The app's plain HTTP client against a local server: answers read whole, compressed ones decoded (as fetch would),
// repeated headers kept, the deadline covering a slow body too, and network failures as plain errors.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest, HttpTimeoutError } from "./http-client";

let server: http.Server;
let base: string;
const seen: { method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", headers: req.headers, body });
      const json = JSON.stringify({ path: req.url, rows: Array.from({ length: 200 }, (_, i) => ({ i, v: "x".repeat(20) })) });
      if (req.url === "/gzip") return res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(zlib.gzipSync(json));
      if (req.url === "/br") return res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" }).end(zlib.brotliCompressSync(json));
      if (req.url === "/repeat") {
        res.setHeader("set-cookie", ["a=1", "b=2"]);
        return res.writeHead(201, { "x-one": "1", "svc-usage": "aggregates=3" }).end("done");
      }
      if (req.url === "/slow-body") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
        return setTimeout(() => res.end("late"), 500);
      }
      if (req.url === "/redirect") return res.writeHead(302, { location: "/elsewhere" }).end();
      res.writeHead(200, { "content-type": "application/json" }).end(json);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (path: string, timeoutMs = 2_000) => httpRequest(`${base}${path}`, { method: "GET", headers: { accept: "application/json" }, timeoutMs });

describe("httpRequest", () => {
  it("reads the whole answer and sends the headers and body it was given", async () => {
    const res = await httpRequest(`${base}/plain?q=1`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}', timeoutMs: 2_000 });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).rows).toHaveLength(200);
    expect(seen.at(-1)).toMatchObject({ method: "POST", body: '{"a":1}', headers: { "content-type": "application/json", "content-length": "7" } });
  });

  it("asks for compressed answers and decodes gzip and brotli, leaving out the encoding headers", async () => {
    const plain = (await get("/plain")).body.toString();
    for (const path of ["/gzip", "/br"]) {
      const res = await get(path);
      expect(JSON.parse(res.body.toString()).rows).toEqual(JSON.parse(plain).rows);
      expect(res.headers.map(([k]) => k)).not.toContain("content-encoding");
    }
    expect(seen.at(-1)!.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("keeps every header in order, repeated ones repeated, and does not follow redirects", async () => {
    const res = await get("/repeat");
    expect(res.status).toBe(201);
    expect(res.headers.filter(([k]) => k === "set-cookie")).toEqual([
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
    ]);
    expect(res.headers).toContainEqual(["svc-usage", "aggregates=3"]);
    const redirect = await get("/redirect");
    expect(redirect.status).toBe(302);
    expect(redirect.headers).toContainEqual(["location", "/elsewhere"]);
  });

  it("gives up at the deadline, also while the body is still coming, with a TimeoutError", async () => {
    const e = await get("/slow-body", 150).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpTimeoutError);
    expect((e as Error).name).toBe("TimeoutError");
    // The connection it abandoned is not reused: the next request answers normally.
    expect((await get("/plain")).status).toBe(200);
  });

  it("a refused connection is a plain network error", async () => {
    await expect(httpRequest("http://127.0.0.1:1/", { method: "GET", headers: {}, timeoutMs: 1_000 })).rejects.toThrow(/ECONNREFUSED/);
  });
});
