// One table from error code to HTTP status. Every error the API sends is JSON:
//   { "error": code, "reason"?: string, "detail"?: string, ...extra }
// Codes and statuses follow SERVICE.md part 7; where the spec leaves a status blank, or names no code for a case,
// the choice is made here once and documented in docs/discovery.md ("Errors"); server/gateway/refusals.db.test.ts
// holds every refusal path of the paid pipeline to it.

export const ERROR_STATUS = {
  // --- payment and access (part 7) ---
  // the unpaid 402, and a refused payment proof (`reason` says why: server/payments/proof-refused.ts)
  payment_required: 402,
  bearer_required: 401,
  invalid_token: 401,
  entitlements_not_available: 501,
  // the free quote's $0 wallet proof did not verify: answered like any refused proof, a 402 with a fresh offer to sign
  identity_invalid: 402,
  plan_required: 403,
  access_not_found: 403,
  // the plan's credit ran out: the call can still be paid per request, so this is the 402 with every rail's offer
  usage_exhausted: 402,
  // not named by the spec: the call would pass a budget the person who claimed the agent set (server/budgets); nothing
  // was charged; the body names the limit, what is left and when it resets (UTC)
  budget_exceeded: 403,
  settlement_failed: 402,
  payment_refunded: 409,
  payment_consumed: 409,
  payment_failed: 409,
  payment_released: 409,
  payment_incomplete: 402,
  payment_unknown: 404,
  payment_provider_unavailable: 503,
  // not named by the spec: the payment is held by another request right now (a concurrent copy of the proof)
  payment_in_progress: 409,
  // not named by the spec: no card processor is configured here (neither Stripe nor the test processor), so the card
  // rail is not offered and its endpoints answer this
  card_payments_unavailable: 501,
  // the console's refund of a payment not in a refundable state (settled or consumed); names the state
  payment_not_refundable: 409,
  // --- the person's controls (not named by the spec; server/controls, server/approvals, server/wallet-caps READMEs) ---
  // a credential its person froze: its paid calls are refused until unfrozen (a revoked one is invalid_token)
  credential_frozen: 403,
  // a call over its person's approval threshold, held: `approvalUrl`, `approvalId`, `expiresAt`; retry once approved
  approval_required: 403,
  // the person declined that call (or let its approval expire): not served; do not retry it before `retryAfter`
  approval_declined: 403,
  // a payment from a wallet whose person capped it at this storefront, over a cap: `limitUsd`, `remainingUsd`, `resetsAt`
  wallet_cap_exceeded: 403,
  // --- bad request (part 7) ---
  invalid_request: 400,
  payg_not_purchasable: 400,
  amount_required: 400,
  amount_not_cent_increment: 400,
  amount_below_minimum: 400,
  amount_above_maximum: 400,
  amount_below_card_minimum: 400,
  // --- not found (part 7 and general) ---
  seller_not_found: 404,
  plan_not_found: 404,
  service_not_found: 404,
  not_found: 404,
  unknown_ticker: 404,
  artifact_not_found: 404,
  archive_day_not_found: 404,
  // --- seller or configuration (part 7) ---
  signing_secret_required: 409,
  // not named by the spec: the seller has no payout address, so nothing can be paid to them (409 like its sibling)
  payout_address_required: 409,
  // not named by the spec: a console catalog change that would clash with what exists (a plan slug in use, a meter
  // removed from a plan while credit bought on it is live)
  catalog_conflict: 409,
  payment_request_mismatch: 409,
  payment_amount_mismatch: 409,
  // not named by the spec: a credits call's Idempotency-Key already used by this credential for another request
  idempotency_key_reused: 409,
  usage_not_priced: 409,
  // --- registration (part 5) ---
  issuer_not_enabled: 400,
  replay_detected: 401,
  login_required: 401,
  interaction_required: 401,
  missing_verified_email: 400,
  invalid_audience: 401,
  expired: 401,
  invalid_signature: 401,
  invalid_login_hint: 400,
  anonymous_registration_disabled: 403,
  service_auth_registration_disabled: 403,
  invalid_refresh_token: 400,
  // --- claim (part 5) ---
  invalid_claim_token: 400,
  too_many_attempts: 429,
  claim_not_confirmed: 409,
  invalid_user_code: 400,
  user_code_expired: 410,
  claim_denied: 403,
  claim_expired: 410,
  already_claimed: 409,
  // --- token exchange (part 5, RFC 6749 section 5.2) ---
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_client: 401,
  // --- upstream signature (market data upstream) ---
  invalid_upstream_signature: 401,
  not_included: 403,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  // --- general ---
  unauthorized: 401,
  forbidden: 403,
  method_not_allowed: 405,
  // a request body that did not arrive within HTTP_BODY_TIMEOUT_MS
  request_timeout: 408,
  payload_too_large: 413,
  // a request target long enough to bloat an answer's headers (a 402 repeats it): refused before any work
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  not_implemented: 501,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorBody = {
  error: ErrorCode;
  reason?: string;
  detail?: string;
  [extra: string]: unknown;
};

/** The one error type domain code throws. `extra` fields are merged into the JSON body. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly reason?: string;
  readonly detail?: string;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { reason?: string; detail?: string; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(opts.detail ?? opts.reason ?? code, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.reason = opts.reason;
    this.detail = opts.detail;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: this.code,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...this.extra,
    };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Shorthand for a 400 naming the offending parameter and the rule it broke. */
export function invalidParameter(parameter: string, detail: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_parameter", detail, extra: { parameter } });
}
