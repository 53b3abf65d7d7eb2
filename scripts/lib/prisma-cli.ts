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
