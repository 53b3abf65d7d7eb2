import { describe, expect, it } from "vitest";
import { json, jsonBodyText, stringifyJson } from "./respond";

describe("stringifyJson", () => {
  it("writes BigInt as strings wherever it sits, and everything else as JSON.stringify does", () => {
    const body = { a: 1, amount: 20_000n, nested: [{ micros: 9_007_199_254_740_993n }, "x", null], when: new Date(0) };
    expect(JSON.parse(stringifyJson(body))).toEqual({
      a: 1,
      amount: "20000",
      nested: [{ micros: "9007199254740993" }, "x", null],
      when: "1970-01-01T00:00:00.000Z",
    });
    expect(stringifyJson({ a: [1, { b: 2 }] })).toBe(JSON.stringify({ a: [1, { b: 2 }] }));
    expect(stringifyJson({ a: 1n }, true)).toBe('{\n  "a": "1"\n}');
  });

  it("still refuses what JSON cannot hold (a cycle)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
  });
});

describe("jsonBodyText", () => {
  it("is the text whose UTF-8 is the answer's body, for any text (non-ASCII, escapes)", async () => {
    for (const body of [{ a: 1 }, { t: "株 é \u2028 😀", n: [1.5, -0, null] }, [], "x".repeat(70_000)]) {
      const text = jsonBodyText(json(body))!;
      const streamed = await json(body).arrayBuffer();
      expect(new TextEncoder().encode(text)).toEqual(new Uint8Array(streamed));
      expect(Buffer.byteLength(text)).toBe(streamed.byteLength);
    }
  });

  it("is undefined for an answer json() did not make, and once its body was read", async () => {
    expect(jsonBodyText(new Response("{}"))).toBeUndefined();
    const res = json({ a: 1 });
    await res.text();
    expect(jsonBodyText(res)).toBeUndefined();
  });
});
