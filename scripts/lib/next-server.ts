// Start the built app with `next start` (the real server binary, not through npx, so the PID is the server).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function distDir(): string {
  return process.env.NEXT_DIST_DIR ?? ".next";
}

export function hasBuild(): boolean {
  return fs.existsSync(path.join(distDir(), "BUILD_ID"));
}

/** Newest modification time under the source folders, to tell whether the build is stale. */
export function newestSourceMtime(roots = ["app", "server", "prisma", "public", "instrumentation.ts", "next.config.ts", "package-lock.json"]): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (p.endsWith("generated") || p.endsWith("migrations")) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (!/\.(test|spec)\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  roots.forEach(walk);
  return newest;
}

export function buildIsStale(): boolean {
  if (!hasBuild()) return true;
  return newestSourceMtime() > fs.statSync(path.join(distDir(), "BUILD_ID")).mtimeMs;
}

export function runNextBuild(log: (l: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      for (const line of d.toString().split("\n")) if (/Compiled|Generating static|Creating an optimized|Collecting/.test(line)) log(`  build: ${line.trim()}`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      if (code === 0) {
        log(`build: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        resolve();
      } else reject(new Error(`next build failed (exit ${code}):\n${out.slice(-4000)}`));
    });
  });
}

export function startNextServer(opts: { port: number; env: Record<string, string>; quiet?: boolean }): ChildProcess {
  // SERVER_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (profiling a benchmark run).
  const prof = process.env.SERVER_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVER_CPU_PROF}`, "--cpu-prof-interval=100"] : [];
  const child = spawn(process.execPath, [...prof, "node_modules/next/dist/bin/next", "start", "-p", String(opts.port), "-H", "0.0.0.0"], {
    env: { ...process.env, ...opts.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(opts.port) },
    stdio: opts.quiet ? ["ignore", "ignore", "inherit"] : ["ignore", "inherit", "inherit"],
  });
  return child;
}

export async function waitForHttp(url: string, timeoutMs = 60_000, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { headers });
      if (res.status < 500) return;
      last = new Error(`HTTP ${res.status}`);
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${String(last)}`);
}
