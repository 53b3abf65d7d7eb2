// npm run bench [name ...]: starts a throwaway stack and the production build, then runs every
// scripts/bench/*.ts module (or the ones named) and prints p50/p99/rps and the ratios they declare.
// Results also go to bench-results/latest.json.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import nextConfig from "../next.config";
import { buildIsStale, runNextBuild, startNextServer, waitForHttp } from "./lib/next-server";
import { startStack } from "./lib/stack";
import type { BenchContext, BenchModule } from "./bench/types";
import { TEST_ENV } from "./test/test-env";

type Row = { name: string; n: number; p50: number; p99: number; mean: number; extra: Record<string, string | number> };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

async function main() {
  const only = process.argv.slice(2);
  const t0 = Date.now();
  const log = (l: string) => console.log(`[bench +${((Date.now() - t0) / 1000).toFixed(1)}s] ${l}`);
  if (buildIsStale()) {
    log("building the app first");
    await runNextBuild(log);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
  fs.chmodSync(dir, 0o755);
  const stack = await startStack({
    dataDir: dir,
    persistent: false,
    log,
    secrets: { APP_SECRET: TEST_ENV.APP_SECRET, MARKET_UPSTREAM_SECRET: TEST_ENV.MARKET_UPSTREAM_SECRET },
  });
  const port = Number(process.env.BENCH_PORT ?? 3300);
  // Logged as production logs (an access line per request at info), not as quietly as the tests.
  const env = {
    ...TEST_ENV,
    NODE_ENV: "production",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    ...stack.env,
    RATE_LIMIT_DISABLED: "1",
    // As in production: the block-time rows deliver before inclusion, the instant-mining rows wait (the chain is fast).
    DELIVER_BEFORE_INCLUSION: "auto",
    // Production requires it (links come from configuration).
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const server = startNextServer({ port, env, quiet: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];
  const ratios: { name: string; value: number; of: string }[] = [];
  try {
    await waitForHttp(`${baseUrl}/manifest.json`);
    const ctx: BenchContext = {
      baseUrl,
      env: { ...env },
      serverPid: server.pid!,
      log,
      record(name, samples, extra = {}) {
        const sorted = [...samples].sort((a, b) => a - b);
        const row = {
          name,
          n: samples.length,
          p50: pct(sorted, 50),
          p99: pct(sorted, 99),
          mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
          extra,
        };
        rows.push(row);
        log(
          `${name}: n=${row.n} p50=${row.p50.toFixed(2)} ms p99=${row.p99.toFixed(2)} ms${Object.entries(extra)
            .map(([k, v]) => ` ${k}=${v}`)
            .join("")}`,
        );
      },
      ratio(name, num, den) {
        const a = rows.find((r) => r.name === num);
        const b = rows.find((r) => r.name === den);
        if (a && b) ratios.push({ name, value: a.p50 / b.p50, of: `${num} / ${den} (p50)` });
      },
    };
    const files = fs
      .readdirSync(path.join("scripts", "bench"))
      .filter((f) => f.endsWith(".ts") && f !== "types.ts" && !f.endsWith(".test.ts"))
      .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, "")));
    for (const f of files) {
      log(`--- ${f}`);
      const mod = (await import(pathToFileURL(path.resolve("scripts", "bench", f)).href)) as BenchModule;
      await mod.run(ctx);
    }
  } finally {
    server.kill("SIGTERM");
    await stack.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // The server started with this environment reads the same config.
  console.log(`\n=== bench results (${os.cpus().length} cores, node ${process.version}, HTTP_COMPRESSION ${nextConfig.compress ? "on" : "off"})`);
  console.log(`${"case".padEnd(58)} ${"n".padStart(6)} ${"p50 ms".padStart(9)} ${"p99 ms".padStart(9)}  extra`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(58)} ${String(r.n).padStart(6)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(9)}  ${Object.entries(r.extra)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}`,
    );
  if (ratios.length) {
    console.log("\nratios");
    for (const r of ratios) console.log(`${r.name.padEnd(58)} ${r.value.toFixed(2)}x   ${r.of}`);
  }
  fs.mkdirSync("bench-results", { recursive: true });
  const head = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).stdout?.trim();
  // A run of a tree with uncommitted changes says so: its figures are not the commit's.
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).stdout?.trim();
  const commit = head ? `${head}${dirty ? " (with uncommitted changes)" : ""}` : undefined;
  const host = `${os.cpus().length} cores, node ${process.version}`;
  fs.writeFileSync(
    "bench-results/latest.json",
    JSON.stringify({ at: new Date().toISOString(), command: ["npm run bench", ...only].join(" "), commit, host, rows, ratios }, null, 2),
  );
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
