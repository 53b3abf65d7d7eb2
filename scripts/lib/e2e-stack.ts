// Where the end-to-end server leaves its stack's settings (database, chain, secrets) for the specs, which run in
// another process: a pointer file per port in the temp directory, naming the stack's stack.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function e2eStackPointer(port: number): string {
  return path.join(os.tmpdir(), `storefront-e2e-${port}.stack`);
}

/** The running e2e stack's settings (DATABASE_URL, RPC_URL, APP_SECRET, ...), or null when none is running. */
export function readE2eStack(port = Number(process.env.E2E_PORT ?? 3100)): Record<string, string> | null {
  const pointer = e2eStackPointer(port);
  if (!fs.existsSync(pointer)) return null;
  const file = fs.readFileSync(pointer, "utf8").trim();
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}
