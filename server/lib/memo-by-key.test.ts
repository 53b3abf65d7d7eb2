import { describe, expect, it } from "vitest";
import { memoByKey } from "./memo-by-key";

describe("memoByKey", () => {
  it("works a key out once, remembers at most `max` keys, then starts afresh", () => {
    const seen: string[] = [];
    const length = memoByKey((k) => (seen.push(k), k.length), 2);
    expect([length("ab"), length("ab"), length("abc"), length("ab")]).toEqual([2, 2, 3, 2]);
    expect(seen).toEqual(["ab", "abc"]);
    length("abcd");
    length("ab");
    expect(seen).toEqual(["ab", "abc", "abcd", "ab"]);
  });
});
