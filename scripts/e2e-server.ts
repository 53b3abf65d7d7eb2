// The server Playwright tests run against: a throwaway stack (embedded PostgreSQL, migrations, demo seller with a
// known business day for the console (server/testing/console-day.ts), a second seller for isolation tests, local
// chain) and the production build started with `next start`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_SELLER, seedMarketSeller } from "../prisma/seed";
import { createDb } from "../server/db/client";
import { seedConsoleDay } from "../server/testing/console-day";
import { startNextServer, waitForHttp } from "./lib/next-server";
import { startStack } from "./lib/stack";
import { E2E_OPERATIONS_ENV, TEST_ENV } from "./test/test-env";

export const SECOND_SELLER = {
  slug: "second-seller",
  name: "Second Seller Data",
  hosts: ["second-seller.localhost"],
  email: "owner@second-seller.test",
  password: "second-seller-password",
  payTo: "0x71bE63f3384f5fb98995898A86B02Fb2426c5788",
  signingSecret: null,
};

/**
 * A storefront whose data upstream never answers (a closed port): every paid delivery fails, which is how the card
 * checkout spec shows the automatic refund in full (e2e/ui/card-checkout.spec.ts).
 */
export const FLAKY_SELLER = {
  slug: "flaky-seller",
  name: "Flaky Upstream Data",
  hosts: ["flaky-seller.localhost"],
  email: "owner@flaky-seller.test",
  password: "flaky-seller-password",
  payTo: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
  signingSecret: "flaky-seller-signing-secret-0123456789",
};

/**
 * A storefront whose upstream is whatever HTTP server a spec points it at (e2e/api/path-variants.spec.ts counts the
 * calls that reach it); until then a closed port. Only the hardening specs use it, so their budgets and counts are
 * their own (e2e/api/client-address.spec.ts).
 */
export const COUNTED_SELLER = {
  slug: "counted-upstream",
  name: "Counted Upstream Data",
  hosts: ["counted.localhost"],
  email: "owner@counted.test",
  password: "counted-seller-password",
  payTo: "0x2546BcD3c84621e976D8185a91A922aE77ECEc30",
  signingSecret: "counted-seller-signing-secret-0123456789",
};

/** A storefront with nothing set up yet (no payout wallet, contact address or webhook): the overview's setup checklist (e2e/ui/console-setup.spec.ts). */
export const SETUP_SELLER = {
  slug: "setup-seller",
  name: "Setup Seller Data",
  hosts: ["setup-seller.localhost"],
  email: "owner@setup-seller.test",
  password: "setup-seller-password",
  payTo: null,
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
  await seedMarketSeller(db, SETUP_SELLER);
  const { sellerId: flakyId } = await seedMarketSeller(db, FLAKY_SELLER);
  await db.service.updateMany({ where: { sellerId: flakyId, upstreamUrl: { not: "" } }, data: { upstreamUrl: "http://127.0.0.1:9" } });
  const { sellerId: countedId } = await seedMarketSeller(db, COUNTED_SELLER);
  await db.service.updateMany({ where: { sellerId: countedId, upstreamUrl: { not: "" } }, data: { upstreamUrl: "http://127.0.0.1:9" } });
  // A known business day for the console specs (e2e/ui/console-pages.spec.ts), written before the app starts.
  const demo = await db.seller.findUniqueOrThrow({ where: { slug: DEMO_SELLER.slug }, select: { id: true } });
  await seedConsoleDay(db, demo.id);
  await db.$disconnect();
  // Where the specs find the stack (its chain, its database): playwright.config.ts names the file for both sides.
  const stackFile = process.env.E2E_STACK_FILE ?? path.join(dir, "stack.json");
  fs.writeFileSync(stackFile, JSON.stringify(stack.env));
  // Production requires PUBLIC_URL: the address the specs call; other storefronts' hosts keep their own names in links.
  const server = startNextServer({
    port,
    env: { ...TEST_ENV, ...E2E_OPERATIONS_ENV, ...stack.env, PUBLIC_URL: `http://127.0.0.1:${port}`, E2E_STACK_FILE: stackFile },
    quiet: false,
  });
  const stop = async () => {
    server.kill("SIGTERM");
    await stack.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(stackFile, { force: true });
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
