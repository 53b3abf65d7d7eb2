// Brings up everything the app needs on one machine: PostgreSQL (embedded unless DATABASE_URL is set),
// migrations, the demo seller, the local chain. Used by `npm run demo` and by the end-to-end test server.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DEMO_SELLER, seedDemo } from "../../prisma/seed";
import { createDb } from "../../server/db/client";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { startLocalChain } from "./local-chain";
import { migrateDeploy, pendingMigrations } from "./prisma-cli";

export type Stack = { env: Record<string, string>; summary: string[]; stop: () => Promise<void> };

type Secrets = { APP_SECRET: string; MARKET_UPSTREAM_SECRET: string };

/** Demo secrets are generated once and kept under .data/, so sessions and signatures survive restarts. */
function loadOrCreateSecrets(dataDir: string, fixed?: Partial<Secrets>): Secrets {
  const file = path.join(dataDir, "secrets.json");
  const existing: Partial<Secrets> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  const secrets: Secrets = {
    APP_SECRET: fixed?.APP_SECRET ?? process.env.APP_SECRET ?? existing.APP_SECRET ?? randomBytes(32).toString("base64url"),
    MARKET_UPSTREAM_SECRET:
      fixed?.MARKET_UPSTREAM_SECRET ?? process.env.MARKET_UPSTREAM_SECRET ?? existing.MARKET_UPSTREAM_SECRET ?? randomBytes(24).toString("base64url"),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export async function startStack(opts: { dataDir: string; persistent: boolean; log: (line: string) => void; secrets?: Partial<Secrets> }): Promise<Stack> {
  const { log } = opts;
  const stops: (() => Promise<void>)[] = [];
  const summary: string[] = [];
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const secrets = loadOrCreateSecrets(opts.dataDir, opts.secrets);

  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    log(`database: using DATABASE_URL (${databaseUrl.replace(/\/\/[^@]*@/, "//***@")})`);
  } else {
    const t0 = Date.now();
    const pg = await startEmbeddedPostgres({
      dataDir: path.join(opts.dataDir, "pg"),
      database: "storefront",
      persistent: opts.persistent,
      fast: !opts.persistent,
      log,
    });
    databaseUrl = pg.url;
    stops.push(pg.stop);
    log(`database: embedded PostgreSQL on 127.0.0.1:${pg.port} (${Date.now() - t0} ms)`);
  }

  let t0 = Date.now();
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length) {
    log(`database: applying ${pending.length} migration(s) with prisma migrate deploy`);
    migrateDeploy(databaseUrl);
    log(`database: migrations applied (${Date.now() - t0} ms)`);
  } else log("database: schema up to date");

  t0 = Date.now();
  const db = createDb(databaseUrl, 2);
  await seedDemo(db, secrets.MARKET_UPSTREAM_SECRET);
  await db.$disconnect();
  log(`demo seller: seeded (${Date.now() - t0} ms)`);
  summary.push(`Seller console sign-in: ${DEMO_SELLER.email} / ${DEMO_SELLER.password}`);
  summary.push("Human sign-in emails (claim pages): the local outbox at /outbox");

  const chain = await startLocalChain({ log });
  if (chain) {
    stops.push(chain.stop);
    summary.push(...chain.summary);
  }

  return {
    env: {
      DATABASE_URL: databaseUrl,
      APP_SECRET: secrets.APP_SECRET,
      MARKET_UPSTREAM_SECRET: secrets.MARKET_UPSTREAM_SECRET,
      // Offline demo: human sign-in emails land in the local outbox page (/outbox) instead of SMTP.
      IDENTITY_DEV_OUTBOX: process.env.IDENTITY_DEV_OUTBOX ?? "1",
      // Offline demo: card payments through the built-in test processor (its checkout page says so), unless Stripe is set.
      CARD_TEST_PROCESSOR: process.env.CARD_TEST_PROCESSOR ?? (process.env.STRIPE_SECRET_KEY ? "off" : "on"),
      ...(chain?.env ?? {}),
    },
    summary,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    },
  };
}
