// npm run db:migrate | db:seed - against DATABASE_URL (any PostgreSQL server).
import { randomBytes } from "node:crypto";
import { seedDemo } from "../prisma/seed";
import { createDb } from "../server/db/client";
import { migrateDeploy, pendingMigrations } from "./lib/prisma-cli";

async function main() {
  const cmd = process.argv[2];
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm run demo sets up an embedded database by itself)");
  if (cmd === "migrate") {
    const pending = await pendingMigrations(url);
    if (!pending.length) return console.log("migrations: nothing pending");
    console.log(`migrations: applying ${pending.join(", ")}`);
    migrateDeploy(url, false);
  } else if (cmd === "seed") {
    const secret = process.env.MARKET_UPSTREAM_SECRET ?? randomBytes(24).toString("base64url");
    const db = createDb(url, 2);
    const { sellerId } = await seedDemo(db, secret);
    await db.$disconnect();
    console.log(
      `seeded the demo seller ${sellerId}${process.env.MARKET_UPSTREAM_SECRET ? "" : ` (signing secret ${secret}: set MARKET_UPSTREAM_SECRET to it)`}`,
    );
  } else throw new Error("usage: tsx scripts/db.ts migrate|seed");
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
