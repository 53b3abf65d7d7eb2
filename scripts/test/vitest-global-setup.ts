// One throwaway PostgreSQL cluster per test run (embedded, in a temp dir), migrated, and one local chain (anvil as
// Base, the test USDC installed), both shared by all test files. Tests isolate themselves by creating their own
// sellers (prisma/seed.ts factories) and, on the chain, by paying from wallets of their own (vitest-setup.ts,
// server/testing/gateway.ts `startChainForTests`); the few files that act on every seller's rows get a database of
// their own, copied from a template of the migrated one (own-database.ts). Set TEST_DATABASE_URL to run against another
// server instead (its database is migrated, not dropped; the template and the files' databases are made beside it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../lib/embedded-postgres";
import { startLocalChain } from "../lib/local-chain";
import { migrateDeploy } from "../lib/prisma-cli";
import { makeTemplate } from "./own-database";

async function startDatabase(): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    migrateDeploy(process.env.DATABASE_URL);
    await makeTemplate(process.env.DATABASE_URL);
    return async () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-vitest-"));
  fs.chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), database: "test", persistent: false, fast: true });
  process.env.DATABASE_URL = pg.url;
  migrateDeploy(pg.url);
  await makeTemplate(pg.url);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

export default async function setup() {
  // The chain starts while PostgreSQL does (the migrations hold this process for a few seconds).
  const chain = startLocalChain({ log: () => {}, anyPort: true });
  chain.catch(() => {});
  let stopDatabase: () => Promise<void>;
  try {
    stopDatabase = await startDatabase();
  } catch (e) {
    await (await chain.catch(() => null))?.stop();
    throw e;
  }
  const started = await chain;
  if (!started) throw new Error("no local chain");
  // Test files run in worker processes that inherit this environment.
  process.env.TEST_CHAIN_RPC_URL = started.env.RPC_URL;
  return async () => {
    await started.stop();
    await stopDatabase();
  };
}
