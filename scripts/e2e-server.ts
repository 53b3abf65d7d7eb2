// The server Playwright tests run against: a throwaway stack (embedded PostgreSQL, migrations, demo seller with a
// known business day for the console (server/testing/console-day.ts), a second seller for isolation tests, local
// chain) and the production build started with `next start`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_SELLER, seedMarketSeller } from "../prisma/seed";
import { createDb } from "../server/db/client";
import { e2eStackPointer } from "./lib/e2e-stack";
import { seedConsoleDay } from "../server/testing/console-day";
import { startNextServer, waitForHttp } from "./lib/next-server";
import { startStack } from "./lib/stack";
import { TEST_ENV } from "./test/test-env";

export const SECOND_SELLER = {
  slug: "second-seller",
  name: "Second Seller Data",
  hosts: ["second-seller.localhost"],
  email: "owner@second-seller.test",
  password: "second-seller-password",
  payTo: "0x71bE63f3384f5fb98995898A86B02Fb2426c5788",
  signingSecret: null,
};

async function main() {
  const port = Number(process.env.E2E_PORT ?? 3100);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-"));
  fs.chmodSync(dir, 0o755);
  const log = (l: string) => console.log(`[e2e-server] ${l}`);
  const stack = await startStack({
    dataDir: dir,
    persistent: false,
    log,
    secrets: { APP_SECRET: TEST_ENV.APP_SECRET, MARKET_UPSTREAM_SECRET: TEST_ENV.MARKET_UPSTREAM_SECRET },
  });
  const db = createDb(stack.env.DATABASE_URL!, 2);
  await seedMarketSeller(db, SECOND_SELLER);
  // A known business day for the console specs (e2e/ui/console-pages.spec.ts), written before the app starts.
  const demo = await db.seller.findUniqueOrThrow({ where: { slug: DEMO_SELLER.slug }, select: { id: true } });
  await seedConsoleDay(db, demo.id);
  await db.$disconnect();
  fs.writeFileSync(path.join(dir, "stack.json"), JSON.stringify(stack.env));
  // Where specs find the stack (a second app instance on the same database, the chain's RPC): a name per port.
  fs.writeFileSync(e2eStackPointer(port), path.join(dir, "stack.json"));
  const server = startNextServer({ port, env: { ...TEST_ENV, ...stack.env, E2E_STACK_FILE: path.join(dir, "stack.json") }, quiet: false });
  const stop = async () => {
    server.kill("SIGTERM");
    fs.rmSync(e2eStackPointer(port), { force: true });
    await stack.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  server.on("exit", (code) => {
    if (code) log(`next start exited with ${code}`);
  });
  await waitForHttp(`http://127.0.0.1:${port}/manifest.json`);
  log(`ready on http://127.0.0.1:${port}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
