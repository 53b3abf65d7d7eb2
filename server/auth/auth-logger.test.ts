// A malformed session cookie, read the way every page and route reads the session (next-auth's own handler, our
// options): one short line in the log, not next-auth's kilobyte of stack per request.
import { getServerSession } from "next-auth/next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authLogger } from "./auth-logger";
import { authOptions } from "./options";

function captureConsole(): { lines: () => string[]; restore: () => void } {
  const out: string[] = [];
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      out.push(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    }),
  );
  return { lines: () => out.flatMap((o) => o.split("\n")), restore: () => spies.forEach((s) => s.mockRestore()) };
}

let capture: ReturnType<typeof captureConsole> | undefined;
afterEach(() => capture?.restore());

const noResponse = { getHeader() {}, setCookie() {}, setHeader() {} };

describe("next-auth's log of a malformed session cookie", () => {
  for (const [name, cookie] of [
    ["garbage", "not-a-jwe"],
    ["a JWE-shaped forgery", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["a kilobyte of junk with control characters", `x\n\r\u0000${"A".repeat(1024)}`],
  ] as const) {
    it(`is one short line for ${name}, and the request has no session`, async () => {
      capture = captureConsole();
      const session = await getServerSession(
        { headers: { host: "localhost:3000" }, cookies: { "next-auth.session-token": cookie } } as never,
        noResponse as never,
        authOptions(),
      );
      expect(session).toBeNull();
      const lines = capture.lines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("JWT_SESSION_ERROR");
      expect(lines[0]!.length).toBeLessThanOrEqual(160);
    });
  }

  it("keeps the stack for errors a client cannot cause", () => {
    capture = captureConsole();
    authLogger.error!("OAUTH_CALLBACK_ERROR", new Error("provider misconfigured"));
    const text = capture.lines().join("\n");
    expect(text).toContain("OAUTH_CALLBACK_ERROR: Error: provider misconfigured");
    expect(text).toMatch(/\n\s+at /);
  });
});
