// Runs once when a server instance starts: validate the environment (fail fast, naming the bad setting),
// then start the background loops this instance takes part in. All are safe with many instances: the
// archive capture takes a PostgreSQL advisory lock, the reconciler claims outbox rows with state-guarded,
// time-limited leases, the analytics rollup advances each seller's watermark under a row lock, webhook workers
// claim deliveries with FOR UPDATE SKIP LOCKED and leases, and the alert checks run under a lease row.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First: every request from now on carries its TCP peer's address (per-client rate limits; docs/rate-limits.md), and a
  // path Next.js cannot decode reaches our routes (a JSON 400/404) instead of Next.js's 500.
  const { installIncomingRequestHooks } = await import("./server/http/incoming-request");
  installIncomingRequestHooks();
  // Everything the server prints becomes a JSON log line (LOG_FORMAT=pretty: readable ones), secrets scrubbed.
  const { captureConsole } = await import("./server/observability/capture-console");
  captureConsole();
  const { checkEnvironmentOrExit } = await import("./server/startup");
  checkEnvironmentOrExit();
  const { startSettlementReconciler } = await import("./server/payments/reconciler");
  startSettlementReconciler();
  const { startArchiveScheduler } = await import("./server/market/archive/scheduler");
  const { archiveFeeds } = await import("./server/market/operations");
  startArchiveScheduler({ feeds: archiveFeeds });
  const { startAnalyticsRollups } = await import("./server/analytics/roll-up-days");
  startAnalyticsRollups();
  // The 402s this instance counted in memory (stateless challenges) reach the funnel at shutdown too.
  const { flushChallengeCountsOnShutdown } = await import("./server/analytics/challenge-counts");
  flushChallengeCountsOnShutdown();
  // Plan credit this instance leased: its spent calls written and the rest returned at shutdown too.
  const { returnLeasesOnShutdown } = await import("./server/payments/rails/credits/instance-lease-book");
  returnLeasesOnShutdown();
  const { startOperations } = await import("./server/startup");
  startOperations();
}
