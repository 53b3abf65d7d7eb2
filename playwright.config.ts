import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
// The e2e server's local chain listens on a fixed port the specs can reach (tests read RPC_URL from it),
// away from 8545 where a running demo's chain may be.
process.env.LOCAL_CHAIN_PORT ??= "18545";
// The e2e server writes its stack (chain and database URLs) here; the specs read it (e2e/stack.ts).
process.env.E2E_STACK_FILE ??= path.join(os.tmpdir(), `storefront-e2e-stack-${port}.json`);

/**
 * Specs that share nothing with the others (their own app instances, a storefront no other spec calls while they run,
 * their own client addresses): they run on a second worker beside the rest, which run one at a time on the first (most
 * act on the demo seller and read what others change: its prices, its funnel counts, its console figures, its outbox).
 * A spec joins this list only when nothing it does or reads is shared with a spec that may run beside it (docs/testing.md).
 */
const APART = ["api/client-address.spec.ts"];

const chromium = {
  browserName: "chromium" as const,
  headless: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // The machine has no network: keep Chromium from reaching out (it would fail, noisily, at start).
    args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  },
};

export default defineConfig({
  testDir: "e2e",
  // Traces and screenshots of failed specs; the JSON reports stay beside it (scripts/test.ts reads them).
  outputDir: "test-results/playwright",
  fullyParallel: false,
  // One worker for the specs that run one at a time, one for those apart from them (each project sets its own limit).
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]]
    : [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // The API specs, then the UI specs, one at a time: one project, so one worker (an API spec never opens the browser).
    { name: "serial", testIgnore: APART, workers: 1, use: chromium },
    { name: "apart", testMatch: APART, workers: 1 },
  ],
  webServer: {
    command: "node node_modules/tsx/dist/cli.mjs --conditions=react-server scripts/e2e-server.ts",
    url: `http://127.0.0.1:${port}/manifest.json`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { E2E_PORT: String(port), LOCAL_CHAIN_PORT: process.env.LOCAL_CHAIN_PORT, E2E_STACK_FILE: process.env.E2E_STACK_FILE },
  },
});
