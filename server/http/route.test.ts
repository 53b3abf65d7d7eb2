import { describe, expect, it, vi } from "vitest";
import { AppError } from "../errors";
import { inProcess } from "./route";

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
