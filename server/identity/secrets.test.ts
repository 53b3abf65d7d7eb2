import { describe, expect, it } from "vitest";
import { isPlusAliased, normalizeEmail } from "./email";
import { hashSecret, newSecret, newUserCode, normalizeUserCode } from "./secrets";

describe("identity secrets", () => {
  it("user codes are XXXX-XXXX consonants and normalise from what people type", () => {
    const code = newUserCode();
    expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(normalizeUserCode(code.toLowerCase().replace("-", " "))).toBe(code);
    expect(normalizeUserCode(` ${code.replace("-", "")} `)).toBe(code);
  });
  it("hashes are keyed and stable; secrets are random", () => {
    expect(hashSecret("a")).toBe(hashSecret("a"));
    expect(hashSecret("a")).not.toBe(hashSecret("b"));
    expect(newSecret("rt")).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).not.toBe(newSecret());
  });
  it("emails normalise and plus aliases are spotted", () => {
    expect(normalizeEmail(" Jane@Example.COM ")).toBe("jane@example.com");
    expect(normalizeEmail("nope")).toBeNull();
    expect(isPlusAliased("jane+agents@example.com")).toBe(true);
    expect(isPlusAliased("jane@ex+ample.com")).toBe(false);
  });
});
