// npm test: type check, lint and format check, unit and database tests (Vitest, real embedded PostgreSQL and one local
// chain; the architecture rules among them), a production build, and end-to-end tests (Playwright: API specs over
// HTTP, UI specs in Chromium) against that build.
//
// Two lanes run side by side (docs/testing.md, "npm test"): Vitest, whose files spend much of their time waiting on
// PostgreSQL, the chain and timers, then the static checks; and the build, then Playwright, which needs only the build.
// The build and Playwright are the longest chain of steps and Playwright's specs mostly run one at a time and leave CPU
// free, so they start first; the static checks fill the end of the Vitest lane.
// Each step's output is held and printed whole when the step ends, so two steps never interleave their lines; the
// summary gives each step's duration and one closing line "tests: N passed, N failed". TEST_LANES=1 runs the steps one
// after another with their output live (as before the lanes).
import { spawn } from "node:child_process";
import fs from "node:fs";

type Result = { step: string; seconds: number; ok: boolean };

const t0 = Date.now();
const results: Result[] = [];
const node = process.execPath;
const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
const live = process.env.TEST_LANES === "1";
let passed = 0;
let failed = 0;
let skipped = 0;
/** The failed tests by name, with the first line of each one's error, printed again at the very end of the summary. */
const failures: string[] = [];
const firstLine = (m: unknown) =>
  String(m ?? "")
    .split("\n")
    .find((l) => l.trim()) ?? "";

/** Run one step; its output is printed whole when it ends (live with TEST_LANES=1). */
function step(name: string, cmd: string[], env: Record<string, string> = {}): Promise<boolean> {
  const s = Date.now();
  if (live) console.log(`\n=== ${name}: ${cmd.join(" ")}`);
  else console.log(`... ${name} started (${((s - t0) / 1000).toFixed(0)} s)`);
  const child = spawn(cmd[0]!, cmd.slice(1), {
    stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  const out: Buffer[] = [];
  child.stdout?.on("data", (d: Buffer) => out.push(d));
  child.stderr?.on("data", (d: Buffer) => out.push(d));
  return new Promise((resolve) => {
    const done = (ok: boolean, why = "") => {
      const seconds = (Date.now() - s) / 1000;
      results.push({ step: name, seconds, ok });
      if (!live) {
        console.log(`\n=== ${name}: ${cmd.join(" ")} (${seconds.toFixed(1)} s${ok ? "" : ", FAILED"})`);
        process.stdout.write(Buffer.concat(out));
      }
      if (why) console.log(why);
      resolve(ok);
    };
    child.on("error", (e) => done(false, `${name}: ${e.message}`));
    child.on("close", (code) => done(code === 0));
  });
}

fs.mkdirSync("test-results", { recursive: true });

async function vitestLane(): Promise<boolean> {
  const vitestJson = "test-results/vitest.json";
  fs.rmSync(vitestJson, { force: true });
  const ok = await step("unit + database tests (vitest)", [
    node,
    "node_modules/vitest/vitest.mjs",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestJson}`,
  ]);
  if (!fs.existsSync(vitestJson)) {
    failed++;
    return false;
  }
  const r = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === "failed") failures.push(`vitest ${file.name.replace(process.cwd() + "/", "")} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  return ok;
}

async function staticChecks(): Promise<boolean> {
  let ok = true;
  const check = async (name: string, cmd: string[]) => {
    const fine = await step(name, cmd);
    if (!fine) failed++;
    ok = ok && fine;
  };
  await check("typecheck", [node, "node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.json"]);
  // Lint (Next.js + typescript-eslint rules, no warnings allowed) and formatting (prettier, width 160).
  await check("lint (eslint)", [node, "node_modules/eslint/bin/eslint.js", "--max-warnings", "0", "."]);
  await check("format (prettier --check)", [node, "node_modules/prettier/bin/prettier.cjs", "--check", "--log-level", "warn", "."]);
  return ok;
}

async function build(): Promise<boolean> {
  // A one-shot build: no Turbopack filesystem cache written for a later build (next.config.ts, NEXT_BUILD_CACHE).
  const built = await step("build (next build)", [node, "node_modules/next/dist/bin/next", "build"], { NEXT_DIST_DIR: distDir, NEXT_BUILD_CACHE: "off" });
  if (!built) failed++;
  return built;
}

async function endToEnd(): Promise<boolean> {
  if (process.env.SKIP_E2E === "1") return true;
  const pwJson = "test-results/playwright.json";
  fs.rmSync(pwJson, { force: true });
  const ok = await step("end-to-end tests (playwright)", [node, "node_modules/@playwright/test/cli.js", "test"], { NEXT_DIST_DIR: distDir });
  if (!fs.existsSync(pwJson)) {
    failed++;
    return false;
  }
  const r = JSON.parse(fs.readFileSync(pwJson, "utf8"));
  passed += r.stats?.expected ?? 0;
  failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
  skipped += r.stats?.skipped ?? 0;
  type Suite = {
    title: string;
    file?: string;
    suites?: Suite[];
    specs?: { title: string; file: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
  };
  const walk = (s: Suite) => {
    for (const spec of s.specs ?? [])
      for (const t of spec.tests)
        if (t.status === "unexpected" || t.status === "flaky")
          failures.push(`playwright ${spec.file} > ${spec.title} (${t.status}): ${firstLine(t.results.find((x) => x.error)?.error?.message)}`);
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of r.suites ?? []) walk(s);
  return ok;
}

async function lanes(): Promise<boolean[]> {
  const built = build();
  // The static checks wait for the build as well as for Vitest, so tsc always sees the route types the build generates
  // (next-env.d.ts, <dist>/types), whichever lane is first.
  const checks = vitestLane().then(async (tested) => {
    await built;
    return [tested, await staticChecks()];
  });
  const e2e = built.then(async (ok) => ok && (await endToEnd()));
  return (await Promise.all([checks, e2e])).flat();
}

const outcomes = live ? [await staticChecks(), await vitestLane(), (await build()) && (await endToEnd())] : await lanes();
const ok = outcomes.flat().every(Boolean);

console.log("\n=== summary");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.step.padEnd(34)} ${r.seconds.toFixed(1)} s`);
console.log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const f of failures) console.log(`failed: ${f.slice(0, 400)}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(ok && failed === 0 ? 0 : 1);
