// Ids come from random bytes the CSPRNG gives in blocks: every id is fresh, across the blocks' edges too.
import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("gives 80-bit Crockford base32 ids that never repeat, across many blocks of random bytes", () => {
    const ids = Array.from({ length: 2_000 }, () => newId("pay"));
    for (const id of ids) expect(id).toMatch(/^pay_[0-9a-hjkmnp-tv-z]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Each id's 16 characters are its own 16 bytes: no two consecutive ids share a run of them.
    for (let i = 1; i < ids.length; i++) expect(ids[i]!.slice(4, 12)).not.toBe(ids[i - 1]!.slice(12));
  });
});
