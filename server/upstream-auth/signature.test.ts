import { describe, expect, it } from "vitest";
import { canonicalQuery } from "../lib/canonical-query";
import { signUpstreamRequest, verifyUpstreamRequest } from "./signature";

const secret = "s".repeat(32);
const parts = { method: "GET", path: "/upstream/market/v1/aggregates/AAPL", query: "to=2020-01-01&from=2019-01-01" };

describe("upstream signature", () => {
  it("verifies its own signature, with the query in any order", () => {
    const h = new Headers(signUpstreamRequest(secret, parts));
    expect(verifyUpstreamRequest(secret, { ...parts, query: "from=2019-01-01&to=2020-01-01" }, h)).toEqual({ ok: true });
  });
  it("refuses a changed path, query, method or secret", () => {
    const h = new Headers(signUpstreamRequest(secret, parts));
    expect(verifyUpstreamRequest(secret, { ...parts, path: "/upstream/market/v1/aggregates/MSFT" }, h).ok).toBe(false);
    expect(verifyUpstreamRequest(secret, { ...parts, query: "from=2019-01-01" }, h).ok).toBe(false);
    expect(verifyUpstreamRequest(secret, { ...parts, method: "POST" }, h).ok).toBe(false);
    expect(verifyUpstreamRequest("t".repeat(32), parts, h)).toEqual({ ok: false, reason: "bad_signature" });
  });
  it("refuses stale and missing signatures", () => {
    const old = new Headers(signUpstreamRequest(secret, parts, Date.now() - 301_000));
    expect(verifyUpstreamRequest(secret, parts, old)).toEqual({ ok: false, reason: "stale_signature" });
    expect(verifyUpstreamRequest(secret, parts, new Headers())).toEqual({ ok: false, reason: "missing_signature" });
  });
  it("canonicalises queries", () => {
    expect(canonicalQuery("b=2&a=1&a=0")).toBe("a=0&a=1&b=2");
    expect(canonicalQuery("q=a+b")).toBe(canonicalQuery("q=a%20b"));
    expect(canonicalQuery("x=%41")).toBe("x=A");
  });
});
