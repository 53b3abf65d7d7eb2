// npm run demo: everything on one machine. Embedded PostgreSQL (data under .data/, kept across restarts)
// unless DATABASE_URL is set, migrations, the demo seller, the local chain, a production build, and the app
// on http://localhost:$PORT (default 3000).
import { randomBytes } from "node:crypto";
import { buildIsStale, runNextBuild, startNextServer, waitForHttp } from "./lib/next-server";
import { startStack } from "./lib/stack";

const t0 = Date.now();
const log = (line: string) => console.log(`[demo +${((Date.now() - t0) / 1000).toFixed(1)}s] ${line}`);

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.env.NEXT_TELEMETRY_DISABLED = "1";

  const stack = await startStack({ dataDir: ".data", persistent: true, log });
  let stopping = false;
  // Declared before `stop`: Ctrl-C during the build must stop the stack without touching a server not yet started.
  let server: ReturnType<typeof startNextServer> | undefined;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log("stopping");
    server?.kill("SIGTERM");
    await stack.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());

  if (buildIsStale()) {
    log("building the app (next build; once, and again whenever the sources change)");
    await runNextBuild(log);
  } else log("build: up to date");

  // Operations on one machine: readable log lines, /metrics with a token made for this run, webhooks to receivers on
  // this machine (never in production: docs/operating.md).
  const metricsToken = process.env.METRICS_TOKEN ?? randomBytes(18).toString("base64url");
  server = startNextServer({
    port,
    env: {
      ...stack.env,
      // Production requires it (links come from configuration): this machine, unless the operator says otherwise.
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
      LOG_FORMAT: process.env.LOG_FORMAT ?? "pretty",
      METRICS_TOKEN: metricsToken,
      WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS ?? "on",
    },
  });
  server.on("exit", (code) => {
    if (!stopping) {
      log(`the app exited (${code}); see the messages above`);
      void stop(code ?? 1);
    }
  });
  await waitForHttp(`http://127.0.0.1:${port}/manifest.json`, 90_000, { host: "localhost" });
  const base = `http://localhost:${port}`;
  const lines = [
    "",
    `Storefront ready on ${base}  (cold start ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    "",
    "Try (agents):",
    `  curl -s '${base}/openapi.json?q=treasury%20interest' | head -c 600`,
    `  curl -s ${base}/manifest.json`,
    `  curl -s ${base}/services`,
    `  curl -s '${base}/vendor/agent/guide?goal=daily%20stock%20prices'`,
    `  curl -si ${base}/api/v1/aggregates/AAPL        # 402 with a signed challenge`,
    `  curl -s -X POST ${base}/agent/identity -H 'content-type: application/json' -d '{"type":"anonymous"}'`,
    `  BASE_URL=${base} npx tsx examples/plan-credits.ts    # buy $5 of plan credit with x402, then call with the bearer alone`,
    `  BASE_URL=${base} npx tsx examples/card-checkout.ts   # the $0.50 backtest by card: pay on the page it prints`,
    "    (test processor: card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; no real money)",
    "",
    "Operations (docs/operating.md):",
    `  curl -s ${base}/readyz`,
    `  curl -s -H 'authorization: Bearer ${metricsToken}' ${base}/metrics | grep '^storefront_'`,
    "",
    "Seller console (webhooks and alerts under /console/webhooks):",
    `  ${base}/console`,
    ...stack.summary.map((s) => `  ${s}`),
    "",
    "Ctrl-C stops everything (demo data stays in .data/).",
    "",
  ];
  console.log(lines.join("\n"));
}

main().catch((e) => {
  console.error(`\n[demo] failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
