import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, ERROR_STATUS } from "./errors";

describe("error table", () => {
  it("covers every error code SERVICE.md part 7 and part 5 name", () => {
    const spec = readFileSync(path.resolve(__dirname, "../../../shared/spec/SERVICE.md"), "utf8");
    const part7 = spec.slice(spec.indexOf("## 7. Errors"), spec.indexOf("## 8. Limits"));
    const codes = new Set<string>();
    for (const m of part7.matchAll(/^\| ([a-z_]+(?:, [a-z_]+)*) \|/gm)) for (const c of m[1]!.split(", ")) codes.add(c);
    for (const m of spec.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)) {
      if (/_(required|not_|invalid|expired|detected|denied|claimed|attempts|exceeded|disabled|mismatch|unknown|incomplete|unavailable)/.test(m[1]!))
        codes.add(m[1]!);
    }
    codes.delete("payment_required"); // 402 is the normal challenge, listed anyway
    const missing = [...codes].filter((c) => !(c in ERROR_STATUS) && !["not_included_in_plan", "token_expired", "token_invalid", "malformed_agent_authorization", "unrecognized_agent_credential", "conflicting_agent_credentials", "combined_authorization_unsupported", "invalid_usage_header"].includes(c));
    expect(codes.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it("uses the statuses the spec fixes", () => {
    expect(ERROR_STATUS.bearer_required).toBe(401);
    expect(ERROR_STATUS.invalid_token).toBe(401);
    expect(ERROR_STATUS.entitlements_not_available).toBe(501);
    expect(ERROR_STATUS.plan_required).toBe(403);
    expect(ERROR_STATUS.seller_not_found).toBe(404);
    expect(ERROR_STATUS.plan_not_found).toBe(404);
    expect(ERROR_STATUS.signing_secret_required).toBe(409);
    expect(ERROR_STATUS.payment_request_mismatch).toBe(409);
    expect(ERROR_STATUS.usage_not_priced).toBe(409);
    expect(ERROR_STATUS.login_required).toBe(401);
    expect(ERROR_STATUS.interaction_required).toBe(401);
    for (const c of ["invalid_request", "payg_not_purchasable", "amount_required", "amount_not_cent_increment", "amount_below_minimum", "amount_above_maximum", "amount_below_card_minimum"] as const)
      expect(ERROR_STATUS[c]).toBe(400);
  });

  it("renders the spec's shape", () => {
    const e = new AppError("plan_required", { reason: "not_included_in_plan", extra: { meters: ["backtest"], plans: [] } });
    expect(e.status).toBe(403);
    expect(e.toBody()).toEqual({ error: "plan_required", reason: "not_included_in_plan", meters: ["backtest"], plans: [] });
    expect(new AppError("not_found").toBody()).toEqual({ error: "not_found" });
  });
});
