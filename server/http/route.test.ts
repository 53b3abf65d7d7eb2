import { describe, expect, it, vi } from "vitest";
import { AppError } from "../errors";
import { inProcess, MAX_REQUEST_TARGET, route } from "./route";

describe("inProcess", () => {
  const req = () => new Request("http://127.0.0.1/upstream/market/v1/aggregates/AAPL", { headers: { "x-request-id": "req-1" } });

  it("passes the handler's answer through untouched", async () => {
    const res = await inProcess(async () => new Response("ok", { status: 201 }))(req());
    expect(res.status).toBe(201);
    expect(await res.text()).toBe("ok");
  });

  it("answers a thrown AppError in the spec's shape, as the HTTP route would", async () => {
    const res = await inProcess(async () => {
      throw new AppError("not_found", { detail: "no market data operation at /nope" });
    })(req());
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found", detail: "no market data operation at /nope" });
  });

  it("answers anything else with a logged 500 naming the request id", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await inProcess(async () => {
      throw new Error("boom");
    })(req());
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: "internal_error", request_id: "req-1" });
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});

describe("route: what is refused before a handler runs", () => {
  const ok = route(async () => new Response("ran"));
  const get = (target: string, host = "127.0.0.1:3000") =>
    ok(new Request(`http://127.0.0.1:3000${target}`, { headers: { host } }), { params: Promise.resolve({}) });

  it("a target longer than MAX_REQUEST_TARGET is 414; the longest guide goal the contract allows is not", async () => {
    const goal = encodeURIComponent("株".repeat(500));
    const longest = await get(`/vendor/agent/guide?goal=${goal}`);
    expect(longest.status).toBe(200);
    expect(await longest.text()).toBe("ran");
    const over = await get(`/vendor/agent/guide?goal=${"a".repeat(MAX_REQUEST_TARGET)}`);
    expect(over.status).toBe(414);
    expect(await over.json()).toMatchObject({ error: "uri_too_long" });
  });

  it.each(["/payments/pay_%00", "/api/v1/aggregates/AA%01PL", "/x/%7F"])("a path decoding to a control character (%s) is 400", async (target) => {
    const res = await get(target);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", reason: "invalid_characters" });
  });

  it.each(["localhost:3000@evil.example", "localhost:99999", "a b", "[::1", "evil.example/x", "%00", ""])("a Host of %j is 400", async (host) => {
    const res = await get("/api/v1/aggregates/AAPL", host);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", reason: "invalid_host" });
  });
});
