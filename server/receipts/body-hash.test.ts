// The receipt's body hash is what a payer recomputes over the bytes it received: the same for an answer's text (its
// UTF-8), its bytes, a view into larger bytes, and nothing at all (the empty body of a 204 or 304).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyHash } from "./sign-receipt";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url");

describe("bodyHash", () => {
  const text = '{"ticker":"AAPL","note":"€ and 𝄞 are more than one byte"}';
  const bytes = new TextEncoder().encode(text);

  it("hashes text as its UTF-8 bytes", () => {
    expect(bodyHash(text)).toBe(sha(bytes));
  });

  it("hashes bytes, an ArrayBuffer and a view the same", () => {
    expect(bodyHash(bytes)).toBe(sha(bytes));
    expect(bodyHash(bytes.slice().buffer)).toBe(sha(bytes));
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    expect(bodyHash(padded.subarray(4, 4 + bytes.length))).toBe(sha(bytes));
    expect(bodyHash(Buffer.from(text))).toBe(sha(bytes));
  });

  it("hashes no body as the empty string", () => {
    expect(bodyHash(null)).toBe(sha(new Uint8Array()));
    expect(bodyHash("")).toBe(sha(new Uint8Array()));
    expect(bodyHash(new ArrayBuffer(0))).toBe(sha(new Uint8Array()));
  });
});
