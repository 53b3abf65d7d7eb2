// The access line's logger (flatLogger) writes what the shared logger writes, byte for byte, without running the
// nested redaction paths over its flat fields; a top-level secret key is still redacted.
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, flatLogger, setLoggerForTests } from "./logger";

function capture(): { lines: string[]; sink: { write(s: string): void } } {
  const lines: string[] = [];
  return { lines, sink: { write: (s: string) => void lines.push(s) } };
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]+",/, "");

afterEach(() => setLoggerForTests(undefined));

describe("flatLogger", () => {
  it("writes an access line exactly as the shared logger does", () => {
    const { lines, sink } = capture();
    const log = createLogger(sink, "info");
    setLoggerForTests(log);
    const fields = {
      req_id: "req-1",
      method: "GET",
      route: "/api/v1/[...path]",
      path: "/api/v1/aggregates/AAPL",
      status: 200,
      duration_ms: 3.41,
      seller: null,
      payment_id: "pay_0123456789abcdef",
      rail: "credits",
      billing: "charged",
      upstream_ms: 1.2,
      user_agent: "agent/1.0",
    };
    log.info(fields, "request");
    flatLogger().info(fields, "request");
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!));
    expect(flatLogger()).toBe(flatLogger());
  });

  it("still redacts a secret key at the top level, keeping a credential's scheme", () => {
    const { lines, sink } = capture();
    setLoggerForTests(createLogger(sink, "info"));
    flatLogger().info({ authorization: "Bearer abcdefghijklmnop", password: "hunter22" }, "x");
    const line = JSON.parse(lines[0]!);
    expect(line.authorization).toBe("Bearer [redacted]");
    expect(line.password).toBe("[redacted]");
  });

  it("follows the logger the tests set", () => {
    const a = capture();
    const b = capture();
    setLoggerForTests(createLogger(a.sink, "info"));
    flatLogger().info({ n: 1 }, "a");
    setLoggerForTests(createLogger(b.sink, "info"));
    flatLogger().info({ n: 2 }, "b");
    expect(a.lines).toHaveLength(1);
    expect(b.lines).toHaveLength(1);
  });
});
