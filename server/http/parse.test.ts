import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { boundedRequest, readBody } from "./parse";

/** A POST whose body streams `chunks` chunks of 64 KiB with no Content-Length (a chunked body); counts what was pulled. */
function streamed(chunks: number, delayMs = 0) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (pulled >= chunks) return c.close();
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      pulled++;
      c.enqueue(new Uint8Array(64 * 1024).fill(97));
    },
  });
  const req = new Request("http://127.0.0.1/x", { method: "POST", body, duplex: "half" } as RequestInit);
  return { req, pulled: () => pulled };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe("readBody", () => {
  it("stops a chunked body at its limit while it streams (413), having read about the limit, not the body", async () => {
    const s = streamed(3200); // 200 MiB offered
    expect(await codeOf(readBody(s.req, 1024 * 1024))).toBe("payload_too_large");
    expect(s.pulled()).toBeLessThanOrEqual((1024 * 1024) / (64 * 1024) + 2);
  });

  it("refuses a declared length past the limit without reading, and a Content-Length that is not a length", async () => {
    const big = streamed(10);
    const req = new Request(big.req, { headers: { "content-length": String(10 * 64 * 1024) } });
    expect(await codeOf(readBody(req, 1024))).toBe("payload_too_large");
    expect(big.pulled()).toBeLessThanOrEqual(1);
    const junk = new Request("http://127.0.0.1/x", { method: "POST", body: "{}", headers: { "content-length": "2, 2" } });
    expect(await codeOf(readBody(junk, 1024))).toBe("invalid_request");
  });

  it("abandons a body that trickles in past the deadline (408)", async () => {
    const slow = streamed(100, 200);
    const t0 = Date.now();
    expect(await codeOf(readBody(slow.req, 64 * 1024 * 1024, 1_000))).toBe("request_timeout");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("reads a body within its limit whole, and boundedRequest hands on exactly those bytes", async () => {
    const s = streamed(4);
    const copy = await boundedRequest(s.req, 1024 * 1024);
    expect((await copy.arrayBuffer()).byteLength).toBe(4 * 64 * 1024);
  });
});
