// Lint: Next.js's own rules (core web vitals, React hooks, accessibility) and typescript-eslint's recommended set.
// Formatting is prettier's job (.prettierrc.json); the layering rules are checked by scripts/test/architecture.test.ts.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-test/**",
      ".next-*/**",
      ".data/**",
      "server/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "bench-results/**",
      ".scratch/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a destructured field left out, a required callback argument).
      // A `let` read by a closure written before its one assignment (a shutdown hook) stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    // Tests and their helpers read parsed JSON of many shapes; `any` there is a shorthand, not a hole in production types.
    files: ["**/*.test.ts", "server/testing/**", "e2e/**", "scripts/test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Plain TypeScript, no React: a `use...` helper there registers Vitest hooks (server/testing/gateway.ts useGatewayStack).
    files: ["**/*.test.ts", "server/testing/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
