// Environment, validated once with zod. A missing or bad setting fails start-up with a message naming it.
// Read lazily (first call), because `next build` imports modules without a runtime environment.
import "server-only";
import { z } from "zod";

const bool = z.enum(["1", "0", "true", "false", "yes", "no", "on", "off"]).transform((v) => ["1", "true", "yes", "on"].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgresql:// URL" }),
  /** Pool size per app instance. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Master secret; sub-keys (402 challenges, sessions, token encryption) are derived from it with HKDF. */
  APP_SECRET: z.string().min(32, "must be at least 32 characters"),
  /**
   * Public origin of every link (payUrl, verification_uri, x-next, emails): its scheme and port, with the storefront host
   * a request addressed once that host resolved to a storefront (server/http/public-origin.ts). Required in production;
   * only a development server builds links from the request's own Host.
   */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s):// URL" }).optional(),
  /** Trust X-Forwarded-Host/Proto from a reverse proxy when resolving the seller and building links; off, a client's are dropped. */
  TRUST_PROXY: bool.default(false),
  /**
   * gzip route answers and pages in this process (read by next.config.ts at start-up). Off behind a proxy or CDN that
   * compresses: Next.js compresses every route handler's answer through its own zlib stream, whatever its size.
   */
  HTTP_COMPRESSION: bool.default(true),
  /** A request body must arrive within this (408 request_timeout otherwise); bodies are also bounded in bytes per route. */
  HTTP_BODY_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  /**
   * The server's own bound on receiving a whole request, headers and body, read or not (Node's requestTimeout; its
   * headersTimeout is the smaller of this and 20 s). Node's default is 300 s: a slow sender held a connection that long.
   */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(5_000).max(300_000).default(30_000),

  // --- market data upstream (served by this app under /upstream/market/v1) ---
  /** The secret the built-in market data upstream accepts gateway signatures with (the demo seller's signing secret). */
  MARKET_UPSTREAM_SECRET: z.string().min(16, "must be at least 16 characters"),
  /** embedded: data shipped in npm packages and committed snapshots (offline). live: Massive, Treasury, Hyperliquid. */
  MARKET_PROVIDER: z.enum(["embedded", "live"]).default("embedded"),
  MASSIVE_API_KEY: z.string().optional(),
  MASSIVE_BASE_URL: z.url().default("https://api.massive.com"),
  TREASURY_BASE_URL: z.url().default("https://api.fiscaldata.treasury.gov/services/api/fiscal_service"),
  HYPERLIQUID_BASE_URL: z.url().default("https://api.hyperliquid.xyz"),
  /** Run the archive capture scheduler inside the app (safe with many instances: a PostgreSQL advisory lock). */
  ARCHIVE_SCHEDULER: bool.default(true),
  // --- market data (issue 3): artifacts and archive schedule ---
  /** How long a backtest PNG stays at its artifact.url before it answers 404 and is deleted. */
  MARKET_ARTIFACT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86400)
    .default(86400),
  /** How often the in-app archive scheduler checks for a UTC day not captured yet. */
  ARCHIVE_CAPTURE_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86400).default(900),

  // --- chain and settlement ---
  RPC_URL: z.url().default("http://127.0.0.1:8545"),
  FACILITATOR: z.enum(["local", "remote"]).default("local"),
  FACILITATOR_URL: z.url().optional(),
  /** Gas wallet of the local facilitator (submits transferWithAuthorization). */
  FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .optional(),

  // --- paid gateway (server/gateway, server/payments) ---
  /** How long the gateway waits for an upstream before answering 504 upstream_timeout (the caller is not charged). */
  GATEWAY_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Lifetime of a 402 challenge and of the x402 authorization window it asks for. */
  PAYMENT_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  /** Lease on a verified payment; after it a crashed instance's payment is released (or settled) by the reconciler. */
  PAYMENT_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /**
   * Plan credit leased to an instance (server/payments/rails/credits/README.md): a lease is at most this many calls'
   * worth and this long, whichever ends first, where the seller set nothing (seller_settings). 0 turns leasing off.
   */
  CREDIT_LEASE_CALLS: z.coerce.number().int().min(0).max(1000).default(20),
  CREDIT_LEASE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  // auto: x402 and MPP data calls answer before inclusion when the chain is slow to include (docs/delivery-before-inclusion.md);
  // off: every paid call waits for its settlement to be included.
  DELIVER_BEFORE_INCLUSION: z.enum(["auto", "off"]).default("auto"),
  /**
   * Resumable delivery: the same request retried with the same proof of a payment charged this many hours ago or less
   * is served again, never charged again (docs/paying.md). 0 turns it off (a retry is `payment_consumed`).
   */
  PAYMENT_REPLAY_HOURS: z.coerce.number().min(0).max(720).default(24),
  /**
   * A replay is served the answer that was paid for, kept for PAYMENT_REPLAY_HOURS (docs/paying.md): the largest answer
   * kept (body and headers, bytes). A larger one is delivered once and its replay refused (`answer_not_kept`). 0 keeps none.
   */
  DELIVERED_ANSWER_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(64 * 1024 * 1024)
    .default(2 * 1024 * 1024),
  /** Bytes of kept answers one seller may hold at once; past it new answers are not kept (their replays are refused) until older ones expire. */
  DELIVERED_ANSWERS_MAX_BYTES_PER_SELLER: z.coerce
    .number()
    .int()
    .min(0)
    .max(64 * 1024 * 1024 * 1024)
    .default(512 * 1024 * 1024),
  /** How often the settlement reconciler scans for pending settlements and abandoned payments. */
  SETTLEMENT_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(15_000),
  /** Requests per minute per payer wallet (paid calls), shared by all instances through PostgreSQL. 0 disables. */
  RATE_LIMIT_PAYER_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /** Requests per minute per seller across all callers (gateway calls). 0 disables. */
  RATE_LIMIT_SELLER_PER_MINUTE: z.coerce.number().int().min(0).default(12_000),
  /** Requests per minute per client address that carry no valid payment and no valid bearer (docs/rate-limits.md). 0 disables. */
  RATE_LIMIT_CLIENT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /** Load balancers in front of the app that append to X-Forwarded-For; 0: the client is the TCP peer (docs/rate-limits.md). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Benchmarks only: switch every rate limit off. */
  RATE_LIMIT_DISABLED: bool.default(false),
  /** Tests only (honoured when NODE_ENV=test): exit the process at a point of the paid pipeline to prove crash recovery. */
  GATEWAY_FAULT: z.enum(["none", "exit_after_lock", "exit_after_outbox"]).default("none"),

  // --- card payments (server/payments/rails/card) ---
  /**
   * Stripe secret key (sk_test_... or sk_live_...). Unset: card payments go to the built-in test processor only when
   * CARD_TEST_PROCESSOR names it; otherwise the card rail is not offered.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]+$/, "must be a Stripe secret or restricted key (sk_test_..., sk_live_...)")
    .optional(),
  /** Signing secret of the Stripe webhook endpoint (/webhooks/stripe), whsec_...; required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[0-9A-Za-z]+$/, "must be a Stripe webhook signing secret (whsec_...)")
    .optional(),
  /** Where the Stripe SDK sends API calls (protocol, host and port), instead of https://api.stripe.com: a local Stripe-shaped server. */
  STRIPE_API_URL: z.url().optional(),
  /** The Stripe profile (networkId) the MPP card method's shared payment tokens are scoped to; unset with Stripe: the method is not offered. */
  STRIPE_NETWORK_ID: z.string().min(1).max(255).optional(),
  /**
   * The built-in test processor (Stripe test card numbers, no real money; its checkout page says it is a test), when
   * STRIPE_SECRET_KEY is unset. The demo and the tests turn it on; off and without Stripe, the card rail is not offered
   * (no card offer in a 402 or in discovery, card proofs refused) and start-up says so. Never on with real buyers.
   */
  CARD_TEST_PROCESSOR: bool.default(false),
  /** How long a hosted card checkout stays open (Stripe accepts 30 minutes to 24 hours and gets a value clamped into that range). */
  CARD_CHECKOUT_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(1800),
  /** A paid checkout the agent never retries within this window is refunded in full by the reconciler. */
  CARD_DELIVERY_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(7 * 86_400)
    .default(86_400),

  // --- agent identity (server/identity) ---
  /** The network-wide authorization server audience an ID-JAG may name ({identity_audience}); the storefront's own origin is accepted too. */
  IDENTITY_AUDIENCE: z.string().min(1).default("urn:storefront:agent-identity"),
  /** POST /agent/identity type=anonymous (off: 403 anonymous_registration_disabled). */
  IDENTITY_ANONYMOUS_REGISTRATION: bool.default(true),
  /** POST /agent/identity type=service_auth (off: 403 service_auth_registration_disabled). */
  IDENTITY_SERVICE_AUTH_REGISTRATION: bool.default(true),
  /** Demo/dev only: human sign-in emails go to a table shown at /outbox instead of being sent. Never in production. */
  IDENTITY_DEV_OUTBOX: bool.default(false),
  /** SMTP server for human sign-in emails (smtp://user:pass@host:port); unset with the outbox off: email sign-in is unavailable. */
  IDENTITY_SMTP_URL: z.url().optional(),
  IDENTITY_MAIL_FROM: z.string().default("Storefront <no-reply@localhost>"),
  /**
   * Let a trusted identity provider's JWKS URL be http or reach private, loopback and reserved addresses (tests and local
   * providers only). Off: fetched over https from public addresses only, checked on the address connected to.
   */
  IDENTITY_ALLOW_PRIVATE_JWKS_URLS: bool.default(false),

  // --- operations: logs, metrics, webhooks, alerts (docs/operating.md) ---
  /** pino level of the JSON log lines (one access line per request at info; errors carry the request id). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** json: one JSON object per line (production). pretty: readable lines (the demo). */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
  /** Bearer token GET /metrics requires; unset: /metrics answers 404 (metrics are off). */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Deliver webhooks from this instance (every instance may: deliveries are claimed with leases in PostgreSQL). */
  WEBHOOK_DELIVERY: bool.default(true),
  /** How long one delivery attempt may take (connect, send, answer) before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Seconds to wait before each retry of a failed delivery (the last is the final attempt): about three days in all. */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "must be comma-separated seconds, such as 5,300,1800")
    .default("5,300,1800,7200,18000,36000,50400,72000,86400"),
  /** An endpoint whose every attempt has failed for this long is disabled and its seller told. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 30)
    .default(120),
  /** Allow http:// and private, loopback and link-local addresses as webhook targets (demo and tests only). */
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.default(false),
  /** Run the alert checks (settlements pending, failing upstreams, refunds that need a person) from this instance. */
  ALERTS: bool.default(true),
  ALERT_CHECK_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** A settlement still pending this long after the call is an alert (payment.settlement_delayed). */
  ALERT_SETTLEMENT_DELAY_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** An operation whose paid calls over the last window failed upstream at least this often is an alert. */
  ALERT_UPSTREAM_FAILURE_RATE: z.coerce.number().gt(0).max(1).default(0.5),
  /** ... counted only from this many paid calls in the window. */
  ALERT_UPSTREAM_MIN_CALLS: z.coerce.number().int().min(1).default(10),
  ALERT_UPSTREAM_WINDOW_SECONDS: z.coerce.number().int().min(30).max(86_400).default(300),
  /** Events (and their deliveries) older than this are deleted. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join("\n")}\nSee docs/configuration.md.`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings count as unset, so `FOO=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const res = schema.safeParse(cleaned);
  if (!res.success) {
    throw new EnvError(res.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`));
  }
  const env = res.data;
  if (env.FACILITATOR === "remote" && !env.FACILITATOR_URL) throw new EnvError(["FACILITATOR_URL: required when FACILITATOR=remote"]);
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) throw new EnvError(["STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set"]);
  if (env.MARKET_PROVIDER === "live" && !env.MASSIVE_API_KEY) throw new EnvError(["MASSIVE_API_KEY: required when MARKET_PROVIDER=live"]);
  // Links are built from configuration: a production server never takes its public origin from a request's Host.
  if (env.NODE_ENV === "production" && !env.PUBLIC_URL)
    throw new EnvError(["PUBLIC_URL: required in production (the public origin links are built from, e.g. https://data.example.com)"]);
  return env;
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests only: forget the parsed environment after changing process.env. */
export function resetEnvForTests(): void {
  cached = undefined;
}

/**
 * Tests only: run `fn` with these variables set (undefined unsets one), then put every one back as it was,
 * even when `fn` throws.
 */
export async function withEnvForTests<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    cached = undefined;
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}
