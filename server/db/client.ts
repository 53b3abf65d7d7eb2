// The database of the process: one pg pool, shared by the Prisma client (`db`) and by the few statements on the
// paid path that are sent as plain SQL (`sql`): one round trip each, without the ORM's per-query work (about 0.13 ms
// against 0.25 ms for Prisma's raw queries and more for model queries, measured here). Only *.queries.ts files (and
// seeds/factories) import this.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { dbWait } from "../lib/request-timing";
import { PrismaClient } from "./generated/client";

export type { Prisma } from "./generated/client";

const globalForDb = globalThis as unknown as { __db?: PrismaClient; __pool?: pg.Pool };

export function createDb(connectionString: string, max = Number(process.env.DATABASE_POOL_SIZE ?? 20)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}

function lazyPool(): pg.Pool {
  if (!globalForDb.__pool) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run demo`, or set it (README: Configuration)");
    // allowExitOnIdle: a script that is done is not kept alive by idle connections (the server keeps itself alive).
    globalForDb.__pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 20), allowExitOnIdle: true });
  }
  return globalForDb.__pool;
}

function lazyDb(): PrismaClient {
  globalForDb.__db ??= new PrismaClient({ adapter: new PrismaPg(lazyPool()) });
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

/**
 * One plain SQL statement on the shared pool: `sql<Row>("select ... where id = $1", [id])`. Parameters are always
 * bound, never interpolated. Values come back as pg parses them (bigint as string, jsonb as objects).
 *
 * `prepare`: a name for a fixed statement on the paid path. Each connection parses and plans it once and then only
 * binds and executes it (the large CTEs spend more time in the planner than in execution). Only for statements whose
 * text never changes: a name stands for one text on every connection.
 */
export async function sql<Row extends Record<string, unknown> = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
  prepare?: string,
): Promise<{ rows: Row[]; rowCount: number }> {
  // Timed as waiting on the database (Server-Timing `db` on paid calls); one lookup when no request is timed.
  const res = await dbWait(() => lazyPool().query<Row>(prepare ? { name: prepare, text, values: params } : { text, values: params }));
  return { rows: res.rows, rowCount: res.rowCount ?? 0 };
}

/** This process's pool (metrics): connections open, idle, and queries waiting for one. Null before the first query. */
export function poolStats(): { total: number; idle: number; waiting: number } | null {
  const p = globalForDb.__pool;
  return p ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
}

/** Scripts that used the process's database (a benchmark) close it before the server they talk to stops. */
export async function closeDatabase(): Promise<void> {
  await globalForDb.__db?.$disconnect();
  await globalForDb.__pool?.end();
  globalForDb.__db = undefined;
  globalForDb.__pool = undefined;
}

/** Postgres' unique-violation code: a lock or an idempotency key already taken. */
export const UNIQUE_VIOLATION = "23505";

/** A transaction client, for functions that must run inside the caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export type ListenState = "listening" | "lost";

/**
 * LISTEN on a PostgreSQL channel with a connection of its own (never a pool's: a pooled connection would stop
 * listening when it is returned). Reports "listening" once subscribed and "lost" when the connection drops, then
 * reconnects with backoff. Returns a stop function.
 */
export function listen(channel: string, onMessage: (payload: string) => void, onState: (s: ListenState) => void): () => void {
  let stopped = false;
  let client: pg.Client | null = null;
  let delay = 250;
  const connect = async () => {
    if (stopped) return;
    const url = process.env.DATABASE_URL;
    if (!url) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const lost = () => {
      if (client !== c) return;
      client = null;
      onState("lost");
      c.end().catch(() => {});
      if (!stopped) setTimeout(connect, (delay = Math.min(delay * 2, 10_000))).unref();
    };
    c.on("error", lost);
    c.on("end", lost);
    c.on("notification", (n) => n.channel === channel && onMessage(n.payload ?? ""));
    try {
      await c.connect();
      // A listener never keeps a process alive on its own (a script that is done exits).
      (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      delay = 250;
      onState("listening");
    } catch {
      lost();
    }
  };
  void connect();
  return () => {
    stopped = true;
    const c = client;
    client = null;
    c?.end().catch(() => {});
  };
}
