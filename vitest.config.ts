import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; under Vitest the server is the only side.
      "server-only": path.resolve(import.meta.dirname, "scripts/test/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    include: ["server/**/*.test.ts", "prisma/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts", "contracts/**/*.test.ts"],
    exclude: ["node_modules", ".next", "e2e"],
    globalSetup: ["scripts/test/vitest-global-setup.ts"],
    setupFiles: ["scripts/test/vitest-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
