// npm test: type check, lint and format check, unit and database tests (Vitest, real embedded PostgreSQL; the
// architecture rules among them), a production build, and end-to-end tests (Playwright: API specs over HTTP, UI
// specs in Chromium) against that build.
// Prints each step's duration and one closing line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const t0 = Date.now();
const results: { step: string; seconds: number; ok: boolean }[] = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name: string, cmd: string[], env: Record<string, string> = {}): boolean {
  const s = Date.now();
  console.log(`\n=== ${name}: ${cmd.join(" ")}`);
  const res = spawnSync(cmd[0]!, cmd.slice(1), { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  const ok = res.status === 0;
  results.push({ step: name, seconds: (Date.now() - s) / 1000, ok });
  return ok;
}

const node = process.execPath;
const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
fs.mkdirSync("test-results", { recursive: true });

let ok = step("typecheck", [node, "node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.json"]);
if (!ok) failed++;

// Lint (Next.js + typescript-eslint rules, no warnings allowed) and formatting (prettier, width 160).
const linted = step("lint (eslint)", [node, "node_modules/eslint/bin/eslint.js", "--max-warnings", "0", "."]);
const formatted = step("format (prettier --check)", [node, "node_modules/prettier/bin/prettier.cjs", "--check", "--log-level", "warn", "."]);
if (!linted) failed++;
if (!formatted) failed++;
ok = ok && linted && formatted;

const vitestJson = "test-results/vitest.json";
fs.rmSync(vitestJson, { force: true });
ok =
  step("unit + database tests (vitest)", [
    node,
    "node_modules/vitest/vitest.mjs",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestJson}`,
  ]) && ok;
if (fs.existsSync(vitestJson)) {
  const r = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
} else failed++;

const built = step("build (next build)", [node, "node_modules/next/dist/bin/next", "build"], { NEXT_DIST_DIR: distDir });
ok = built && ok;
if (!built) failed++;

if (built && process.env.SKIP_E2E !== "1") {
  const pwJson = "test-results/playwright.json";
  fs.rmSync(pwJson, { force: true });
  ok = step("end-to-end tests (playwright)", [node, "node_modules/@playwright/test/cli.js", "test"], { NEXT_DIST_DIR: distDir }) && ok;
  if (fs.existsSync(pwJson)) {
    const r = JSON.parse(fs.readFileSync(pwJson, "utf8"));
    passed += r.stats?.expected ?? 0;
    failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
    skipped += r.stats?.skipped ?? 0;
  } else failed++;
}

console.log("\n=== summary");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.step.padEnd(34)} ${r.seconds.toFixed(1)} s`);
console.log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(ok && failed === 0 ? 0 : 1);
