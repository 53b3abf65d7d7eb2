import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
// The e2e server's local chain listens on a fixed port the specs can reach (tests read RPC_URL from it),
// away from 8545 where a running demo's chain may be.
process.env.LOCAL_CHAIN_PORT ??= "18545";
// The e2e server writes its stack (chain and database URLs) here; the specs read it (e2e/stack.ts).
process.env.E2E_STACK_FILE ??= path.join(os.tmpdir(), `storefront-e2e-stack-${port}.json`);

export default defineConfig({
  testDir: "e2e",
  // Traces and screenshots of failed specs; the JSON reports stay beside it (scripts/test.ts reads them).
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 1,
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
    { name: "api", testDir: "e2e/api" },
    {
      name: "ui",
      testDir: "e2e/ui",
      use: {
        browserName: "chromium",
        headless: true,
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          // The machine has no network: keep Chromium from reaching out (it would fail, noisily, at start).
          args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
        },
      },
    },
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
