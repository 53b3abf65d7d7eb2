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

describe("route: the headers every answer gets", () => {
  const call = (handler: () => Response | Promise<Response>) =>
    route(handler)(new Request("http://127.0.0.1:3000/x", { headers: { "x-request-id": "req-7" } }), { params: Promise.resolve({}) });

  it("adds CORS and the request id to the handler's own answer, its status, headers and body kept", async () => {
    const res = await call(() => new Response("body", { status: 201, statusText: "Made", headers: { etag: '"e"' } }));
    expect([res.status, res.statusText, res.headers.get("etag"), res.headers.get("x-request-id")]).toEqual([201, "Made", '"e"', "req-7"]);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.text()).toBe("body");
  });

  it("keeps a CORS header the handler set itself", async () => {
    const res = await call(() => new Response(null, { headers: { "access-control-allow-origin": "https://a.example" } }));
    expect(res.headers.get("access-control-allow-origin")).toBe("https://a.example");
  });

  it("copies an answer whose headers cannot change (a redirect), and adds them to the copy", async () => {
    const res = await call(() => Response.redirect("http://127.0.0.1:3000/y", 307));
    expect([res.status, res.headers.get("location"), res.headers.get("x-request-id")]).toEqual([307, "http://127.0.0.1:3000/y", "req-7"]);
    expect(res.headers.get("access-control-expose-headers")).toContain("svc-billing");
  });
});
