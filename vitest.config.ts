import os from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Test files run side by side, each in a process of its own: they share one PostgreSQL and one chain (the global
// set-up) and keep apart by their own sellers and wallets, or their own database (scripts/test/own-database.ts).
// TEST_WORKERS overrides how many run at once (docs/testing.md has the measurements behind the default).
const workers = Number(process.env.TEST_WORKERS ?? os.availableParallelism() + 1);

/**
 * Files that run alone, after the others: their tests time child processes they start and kill (a crash mid-payment,
 * two worker instances) or a window of a second or two on a chain that mines by hand, and stay exact only while nothing
 * else competes for the CPU. Keep this list short: each file here adds its whole duration to the run.
 */
const ALONE = [
  "server/payments/reconciler.db.test.ts",
  "server/payments/rails/card/reconcile-card-payments.db.test.ts",
  "server/webhooks/two-instances.db.test.ts",
  "server/payments/deliver-first.db.test.ts",
  // two app instances as child processes racing 1,000 calls for one budget: under a loaded run one instance could be
  // starved until the other had spent the whole budget, and the test would not race them at all
  "server/budgets/two-instances.db.test.ts",
];

const INCLUDE = ["server/**/*.test.ts", "prisma/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts", "contracts/**/*.test.ts"];
const EXCLUDE = ["node_modules", ".next", "e2e"];
const alias = {
  "@": path.resolve(import.meta.dirname),
  // `server-only` throws outside React Server Components; under Vitest the server is the only side.
  "server-only": path.resolve(import.meta.dirname, "scripts/test/empty-module.ts"),
};

function project(name: string, test: NonNullable<TestProjectInlineConfiguration["test"]>): TestProjectInlineConfiguration {
  return {
    resolve: { alias },
    test: {
      name,
      environment: "node",
      exclude: EXCLUDE,
      setupFiles: ["scripts/test/vitest-setup.ts"],
      pool: "forks",
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...test,
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Once per run, for every project: the PostgreSQL and the chain.
    globalSetup: ["scripts/test/vitest-global-setup.ts"],
    projects: [
      project("parallel", { include: INCLUDE, exclude: [...EXCLUDE, ...ALONE], maxWorkers: workers }),
      project("alone", { include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } }),
    ],
  },
});
