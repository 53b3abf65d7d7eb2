// One throwaway PostgreSQL cluster per test run (embedded, in a temp dir), migrated, shared by all test
// files. Tests isolate themselves by creating their own sellers (prisma/seed.ts factories). Set
// TEST_DATABASE_URL to run against another server instead (its database is migrated, not dropped).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../lib/embedded-postgres";
import { migrateDeploy } from "../lib/prisma-cli";

export default async function setup() {
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    migrateDeploy(process.env.DATABASE_URL);
    return async () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-vitest-"));
  fs.chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), database: "test", persistent: false, fast: true });
  process.env.DATABASE_URL = pg.url;
  migrateDeploy(pg.url);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
