// The e2e server's stack as the specs see it: the file scripts/e2e-server.ts writes (its chain's RPC URL and its
// database URL; playwright.config.ts names the file for both sides), and one SQL query against that database for the
// facts a page or an API answer does not show (a payment's ledger rows).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { TEST_ENV } from "../scripts/test/test-env";

export function stackEnv(): Record<string, string> {
  const file = process.env.E2E_STACK_FILE;
  if (!file || !fs.existsSync(file)) throw new Error(`the e2e stack file is missing (E2E_STACK_FILE=${file}); run the specs through playwright.config.ts`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

export async function query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: stackEnv().DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Another instance of the built app on `port`, sharing the e2e stack's database and chain, with `env` on top of the
 * e2e server's settings; resolves once it answers. Stop it with `stop()` (the spec's afterAll).
 */
export async function startAppInstance(port: number, env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    // Production requires PUBLIC_URL: this instance's own address, unless the spec names another.
    env: { ...process.env, ...TEST_ENV, ...stackEnv(), NODE_ENV: "production", PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => void child.kill("SIGTERM");
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`${url}/manifest.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`the app instance on port ${port} did not answer /manifest.json within 30 s (exit code ${child.exitCode})`);
}
