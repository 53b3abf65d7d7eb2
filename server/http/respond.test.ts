import { describe, expect, it } from "vitest";
import { stringifyJson } from "./respond";

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
