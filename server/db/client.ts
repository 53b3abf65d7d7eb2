// The one Prisma client of the process. Only *.queries.ts files (and seeds/factories) import it.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export type { Prisma } from "./generated/client";

const globalForDb = globalThis as unknown as { __db?: PrismaClient };

export function createDb(connectionString: string, max = Number(process.env.DATABASE_POOL_SIZE ?? 20)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}

function lazyDb(): PrismaClient {
  if (!globalForDb.__db) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run demo`, or set it (README: Configuration)");
    globalForDb.__db = createDb(url);
  }
  return globalForDb.__db;
}

/** Created on first use, so importing this module never connects (next build imports it). */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_t, prop) {
    const client = lazyDb();
    const value = Reflect.get(client, prop, client);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

/** A transaction client, for functions that must run inside the caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
