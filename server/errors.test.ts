import { describe, expect, it } from "vitest";
import { AppError, ERROR_STATUS } from "./errors";

// Every `error` code the service description (SERVICE.md 1.0.0) names, part 5 (registration, claim, token
// exchange) and part 7 (payment and access, 400, 404, 409, other rules). Kept here as the project's own list:
// the contract is not part of this repository, and a code added to it is added here with its status.
const CONTRACT_ERROR_CODES = [
  // part 7, payment and access
  "bearer_required",
  "invalid_token",
  "entitlements_not_available",
  "identity_invalid",
  "plan_required",
  "access_not_found",
  "usage_exhausted",
  "settlement_failed",
  "payment_refunded",
  "payment_consumed",
  "payment_failed",
  "payment_released",
  "payment_incomplete",
  "payment_unknown",
  "payment_provider_unavailable",
  "payment_required",
  // part 7, 400
  "invalid_request",
  "payg_not_purchasable",
  "amount_required",
  "amount_not_cent_increment",
  "amount_below_minimum",
  "amount_above_maximum",
  "amount_below_card_minimum",
  // part 7, 404 and 409
  "seller_not_found",
  "plan_not_found",
  "signing_secret_required",
  "payment_request_mismatch",
  "payment_amount_mismatch",
  "usage_not_priced",
  // part 7, other rules
  "rate_limit_exceeded",
  // part 5, registration
  "issuer_not_enabled",
  "replay_detected",
  "login_required",
  "interaction_required",
  "missing_verified_email",
  "invalid_audience",
  "expired",
  "invalid_signature",
  "invalid_login_hint",
  "anonymous_registration_disabled",
  "service_auth_registration_disabled",
  "invalid_refresh_token",
  // part 5, claim
  "invalid_claim_token",
  "too_many_attempts",
  "claim_not_confirmed",
  "invalid_user_code",
  "user_code_expired",
  "claim_denied",
  "claim_expired",
  "already_claimed",
  // part 5, token exchange
  "invalid_grant",
  "unsupported_grant_type",
] as const;

// Values the contract gives as `reason` (or a header value), refining a code; they must not become codes.
const CONTRACT_REASONS = [
  "not_included_in_plan",
  "token_expired",
  "token_invalid",
  "malformed_agent_authorization",
  "unrecognized_agent_credential",
  "conflicting_agent_credentials",
  "combined_authorization_unsupported",
  "invalid_usage_header",
  "insufficient_funds",
] as const;

describe("error table", () => {
  it("covers every error code the contract names (SERVICE.md parts 5 and 7)", () => {
    const missing = CONTRACT_ERROR_CODES.filter((c) => !(c in ERROR_STATUS));
    expect(missing).toEqual([]);
  });

  it("keeps refinements as reasons, never as codes of their own", () => {
    for (const reason of CONTRACT_REASONS) expect(reason in ERROR_STATUS).toBe(false);
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
    for (const c of [
      "invalid_request",
      "payg_not_purchasable",
      "amount_required",
      "amount_not_cent_increment",
      "amount_below_minimum",
      "amount_above_maximum",
      "amount_below_card_minimum",
    ] as const)
      expect(ERROR_STATUS[c]).toBe(400);
  });

  it("renders the spec's shape", () => {
    const e = new AppError("plan_required", { reason: "not_included_in_plan", extra: { meters: ["backtest"], plans: [] } });
    expect(e.status).toBe(403);
    expect(e.toBody()).toEqual({ error: "plan_required", reason: "not_included_in_plan", meters: ["backtest"], plans: [] });
    expect(new AppError("not_found").toBody()).toEqual({ error: "not_found" });
  });
});
