import { spawnSync } from "node:child_process";
import path from "node:path";

/** Run the Prisma CLI (migrate deploy, migrate diff, ...) against `databaseUrl`. Throws with its output on failure. */
export function prismaCli(args: string[], databaseUrl: string, opts: { quiet?: boolean } = {}): string {
  const bin = path.join(process.cwd(), "node_modules", "prisma", "build", "index.js");
  const res = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  const out = `${res.stdout ?? ""}${res.stderr ?? ""}`;
  if (res.status !== 0) throw new Error(`prisma ${args.join(" ")} failed:\n${out}`);
  if (!opts.quiet) process.stdout.write(out);
  return out;
}

export function migrateDeploy(databaseUrl: string, quiet = true): void {
  prismaCli(["migrate", "deploy"], databaseUrl, { quiet });
}

/**
 * Names of committed migrations not yet applied, read straight from `_prisma_migrations` (milliseconds),
 * so a restart with nothing pending skips the Prisma CLI (whose Wasm engine takes seconds to start).
 */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const fs = await import("node:fs");
  const pg = (await import("pg")).default;
  const folders = fs
    .readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const exists = await client.query("select to_regclass('public._prisma_migrations') as t");
    if (!exists.rows[0]?.t) return folders;
    const applied = await client.query("select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null");
    const done = new Set(applied.rows.map((r: { migration_name: string }) => r.migration_name));
    return folders.filter((f) => !done.has(f));
  } finally {
    await client.end();
  }
}
