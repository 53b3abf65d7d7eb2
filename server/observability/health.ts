// Readiness for a load balancer that polls every few seconds (GET /readyz): PostgreSQL answers, its schema has every
// migration this build ships, and the chain RPC the wallet rails settle on answers as Base. Each check is cached
// briefly and shared by concurrent polls (one statement or RPC call per window, however many pollers); the migration
// check, which reads a directory and a table, is made until it passes and then never again (an applied migration is
// not un-applied under a running instance). Liveness (GET /healthz) checks nothing: the process answered.
import fs from "node:fs";
import path from "node:path";
import { CHAIN_ID } from "../chain/config";
import { env } from "../env";
import { httpRequest } from "../lib/http-client";
import { appliedMigrations, pingDatabase } from "./health.queries";

export type Check = { ok: boolean; ms: number; detail?: string };
export type Readiness = { ready: boolean; checks: Record<string, Check> };

const DATABASE_TTL_MS = 1_000;
const CHAIN_TTL_MS = 5_000;
const MIGRATIONS_RETRY_MS = 10_000;
const TIMEOUT_MS = 2_000;

type Cached = { at: number; value: Promise<Check> };
const cache = new Map<string, Cached>();

/** `run` at most once per `ttlMs` (and once at a time), its answer shared by every caller meanwhile. */
function cachedCheck(name: string, ttlMs: number, run: () => Promise<Omit<Check, "ms">>): Promise<Check> {
  const hit = cache.get(name);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value;
  const t0 = performance.now();
  const value = withTimeout(run(), TIMEOUT_MS)
    .then((r) => ({ ...r, ms: Math.round(performance.now() - t0) }))
    .catch((e: unknown) => ({ ok: false, ms: Math.round(performance.now() - t0), detail: e instanceof Error ? e.message.split("\n")[0] : String(e) }));
  cache.set(name, { at: Date.now(), value });
  return value;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

const database = () =>
  cachedCheck("database", DATABASE_TTL_MS, async () => {
    await pingDatabase();
    return { ok: true };
  });

/** The migration folders this build ships (`prisma/migrations`), or null when they are not next to the server. */
function shippedMigrations(): string[] | null {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  if (!fs.existsSync(dir)) return null;
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}

let migrated = false;
const migrations = (): Promise<Check> => {
  if (migrated) return Promise.resolve({ ok: true, ms: 0 });
  return cachedCheck("migrations", MIGRATIONS_RETRY_MS, async () => {
    const shipped = shippedMigrations();
    if (!shipped) return { ok: true, detail: "prisma/migrations is not next to the server: not checked" };
    const applied = new Set(await appliedMigrations());
    const missing = shipped.filter((m) => !applied.has(m));
    if (missing.length) return { ok: false, detail: `not applied: ${missing.join(", ")}` };
    migrated = true;
    return { ok: true };
  });
};

const chain = () =>
  cachedCheck("chain", CHAIN_TTL_MS, async () => {
    const res = await httpRequest(env().RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      timeoutMs: TIMEOUT_MS,
    });
    if (res.status !== 200) return { ok: false, detail: `RPC answered HTTP ${res.status}` };
    const id = (JSON.parse(res.body.toString("utf8")) as { result?: string }).result;
    if (!id || Number.parseInt(id, 16) !== CHAIN_ID) return { ok: false, detail: `RPC is on chain ${id ? Number.parseInt(id, 16) : "?"}, not ${CHAIN_ID}` };
    return { ok: true };
  });

/**
 * Whether this instance should get traffic. The wallet rails (x402 and MPP, always offered) settle through RPC_URL, so
 * the chain is checked too; a remote facilitator settles through its own node, but refunds are still checked on ours.
 */
export async function readiness(): Promise<Readiness> {
  const db = await database();
  const [mig, rpc] = await Promise.all([db.ok ? migrations() : Promise.resolve<Check>({ ok: false, ms: 0, detail: "database unreachable" }), chain()]);
  const checks = { database: db, migrations: mig, chain: rpc };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}

/** Tests only: forget cached answers. */
export function resetHealthForTests(): void {
  cache.clear();
  migrated = false;
}
