import { describe, expect, it } from "vitest";
import { parseAgentAuthorization as parse } from "./parse-agent-authorization";

describe("parseAgentAuthorization (SERVICE.md part 5 bearer rules)", () => {
  it("finds no bearer when there is none", () => {
    expect(parse(null, null)).toEqual({ type: "none" });
    expect(parse("Payment eyJhbGciOi", null)).toEqual({ type: "none" });
    expect(parse("Basic dXNlcjpwdw==", null)).toEqual({ type: "none" });
  });
  it("takes Authorization: Bearer, any case of the scheme", () => {
    expect(parse("Bearer abc.def.ghi", null)).toEqual({ type: "token", token: "abc.def.ghi", via: "authorization" });
    expect(parse("bearer abc", null)).toMatchObject({ token: "abc" });
  });
  it("takes the agent header when Authorization carries a payment", () => {
    expect(parse("Payment eyJjcmVk", "Bearer tok")).toEqual({ type: "token", token: "tok", via: "agent-authorization" });
  });
  it("accepts the same token in both headers", () => {
    expect(parse("Bearer tok", "Bearer tok")).toMatchObject({ type: "token", token: "tok" });
  });
  it("refuses two different tokens", () => {
    expect(parse("Bearer one", "Bearer two")).toMatchObject({ type: "error", reason: "conflicting_agent_credentials" });
  });
  it("refuses comma-combined Authorization values", () => {
    expect(parse("Payment eyJjcmVk, Bearer tok", null)).toMatchObject({ type: "error", reason: "combined_authorization_unsupported" });
    expect(parse("Bearer tok, Payment eyJjcmVk", null)).toMatchObject({ type: "error", reason: "combined_authorization_unsupported" });
  });
  it("refuses a malformed agent header or bearer", () => {
    for (const bad of ["tok", "Bearer", "Bearer a b", "Bearer one, Bearer two", "Basic abc", "Bearer tok!"])
      expect(parse(null, bad)).toMatchObject({ type: "error", reason: "malformed_agent_authorization" });
    expect(parse("Bearer a b", null)).toMatchObject({ type: "error", reason: "malformed_agent_authorization" });
    expect(parse("Bearer ", null)).toMatchObject({ type: "error", reason: "malformed_agent_authorization" });
  });
});
