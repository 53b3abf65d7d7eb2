import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

const base = {
  DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
  APP_SECRET: "x".repeat(32),
  MARKET_UPSTREAM_SECRET: "y".repeat(16),
};

describe("env", () => {
  it("applies defaults", () => {
    const e = parseEnv(base);
    expect(e.PORT).toBe(3000);
    expect(e.MARKET_PROVIDER).toBe("embedded");
    expect(e.ARCHIVE_SCHEDULER).toBe(true);
  });
  it("names the missing setting", () => {
    expect(() => parseEnv({ ...base, APP_SECRET: undefined })).toThrow(/APP_SECRET/);
    expect(() => parseEnv({ ...base, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgresql/);
  });
  it("names a bad value", () => {
    try {
      parseEnv({ ...base, PORT: "abc", FACILITATOR: "hosted" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      expect((e as EnvError).issues.join("\n")).toMatch(/PORT/);
      expect((e as EnvError).issues.join("\n")).toMatch(/FACILITATOR/);
    }
  });
  it("checks settings that depend on each other", () => {
    expect(() => parseEnv({ ...base, FACILITATOR: "remote" })).toThrow(/FACILITATOR_URL/);
    expect(() => parseEnv({ ...base, MARKET_PROVIDER: "live" })).toThrow(/MASSIVE_API_KEY/);
  });
  it("requires PUBLIC_URL in production, an http(s) origin", () => {
    expect(() => parseEnv({ ...base, NODE_ENV: "production" })).toThrow(/PUBLIC_URL: required in production/);
    expect(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://data.example.com" }).PUBLIC_URL).toBe("https://data.example.com");
    expect(() => parseEnv({ ...base, PUBLIC_URL: "javascript:alert(1)" })).toThrow(/PUBLIC_URL/);
  });
  it("turns the card test processor on only when named", () => {
    expect(parseEnv(base).CARD_TEST_PROCESSOR).toBe(false);
    expect(parseEnv({ ...base, CARD_TEST_PROCESSOR: "on" }).CARD_TEST_PROCESSOR).toBe(true);
  });
});
