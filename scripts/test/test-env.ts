/** Settings every test process gets (unit, database and end-to-end). Values are test-only. */
export const TEST_ENV = {
  NODE_ENV: "test",
  APP_SECRET: "test-app-secret-0123456789abcdef0123456789",
  MARKET_UPSTREAM_SECRET: "test-market-upstream-secret",
  NEXTAUTH_SECRET: "test-app-secret-0123456789abcdef0123456789",
  ARCHIVE_SCHEDULER: "off",
  IDENTITY_DEV_OUTBOX: "1",
  NEXT_TELEMETRY_DISABLED: "1",
  // One access line per request would drown the test output; warnings and errors still show.
  LOG_LEVEL: "warn",
  // Paid calls wait for inclusion, whatever the load does to the local chain's timings: a test that means to deliver
  // first says so (setInclusionEstimateForTests); the bench's block-time rows run with auto.
  DELIVER_BEFORE_INCLUSION: "off",
  // Plan-covered calls reserve one by one, as their tests assert call by call; a test of leased credit sets the seller's
  // lease settings (seller_settings.credit_lease_calls), which win over this default.
  CREDIT_LEASE_CALLS: "0",
  // Card payments through the built-in test processor (test cards, no real money): chosen explicitly, never a default.
  CARD_TEST_PROCESSOR: "on",
} as const;

/** What the end-to-end server adds for the operations specs: /metrics on, webhooks to receivers on loopback. */
export const E2E_OPERATIONS_ENV = {
  METRICS_TOKEN: "e2e-metrics-token-0123456789",
  WEBHOOK_ALLOW_PRIVATE_URLS: "on",
} as const;
