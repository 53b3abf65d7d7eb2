// PostgreSQL's own account of a bench case: the statements it ran (pg_stat_statements, when the server preloads it:
// EMBEDDED_POSTGRES_FLAGS="-c shared_preload_libraries=pg_stat_statements"), its commits and the WAL they wrote
// (pg_stat_database, pg_stat_wal), taken as differences around the case's load. Nothing is printed when the
// extension is missing, apart from the commit and WAL counts every server has.
import pg from "pg";

type Snapshot = { commits: number; walRecords: number; walBytes: number; walSyncs: number; walSyncMs: number };

export type PgCaseStats = { calls: number; perCall: Record<string, string>; statements: string[] };

async function snapshot(c: pg.Client): Promise<Snapshot> {
  const db = await c.query<{ xact_commit: string }>("select xact_commit::text from pg_stat_database where datname = current_database()");
  // PostgreSQL 18 moved the sync counters to pg_stat_io; wal_records and wal_bytes stay in pg_stat_wal.
  const wal = await c.query<{ wal_records: string; wal_bytes: string }>("select wal_records::text, wal_bytes::text from pg_stat_wal");
  const io = await c
    .query<{ fsyncs: string; fsync_time: string }>(
      "select coalesce(sum(fsyncs), 0)::text as fsyncs, coalesce(sum(fsync_time), 0)::text as fsync_time from pg_stat_io where object = 'wal'",
    )
    .catch(() => ({ rows: [{ fsyncs: "0", fsync_time: "0" }] }));
  return {
    commits: Number(db.rows[0]?.xact_commit ?? 0),
    walRecords: Number(wal.rows[0]?.wal_records ?? 0),
    walBytes: Number(wal.rows[0]?.wal_bytes ?? 0),
    walSyncs: Number(io.rows[0]?.fsyncs ?? 0),
    walSyncMs: Number(io.rows[0]?.fsync_time ?? 0),
  };
}

/** Run `load` (`calls` requests) and say what PostgreSQL did for it, per call. */
export async function withPgStats<T>(databaseUrl: string, calls: number, load: () => Promise<T>): Promise<{ result: T; stats: PgCaseStats }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    // Stats are flushed to the shared counters now and then; force it so the differences are this case's.
    const flush = () => c.query("select pg_stat_force_next_flush()").catch(() => {});
    let statements = false;
    try {
      await c.query("create extension if not exists pg_stat_statements");
      await c.query("select pg_stat_statements_reset()");
      statements = true;
    } catch {
      /* not preloaded: commits and WAL only */
    }
    await flush();
    await new Promise((r) => setTimeout(r, 1100));
    const before = await snapshot(c);
    const result = await load();
    await new Promise((r) => setTimeout(r, 1100));
    const after = await snapshot(c);
    const per = (a: number, b: number) => ((a - b) / calls).toFixed(2);
    const perCall = {
      commits: per(after.commits, before.commits),
      wal_records: per(after.walRecords, before.walRecords),
      wal_bytes: per(after.walBytes, before.walBytes),
      wal_fsyncs: per(after.walSyncs, before.walSyncs),
      wal_fsync_ms: per(after.walSyncMs, before.walSyncMs),
    };
    const lines: string[] = [];
    if (statements) {
      const top = await c.query<{ query: string; calls: string; total: string; mean: string; rows: string; wal_bytes: string }>(
        `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls::text, round(total_exec_time::numeric, 1)::text as total,
           round(mean_exec_time::numeric, 3)::text as mean, rows::text, wal_bytes::text
         from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
           and query not ilike '%pg_stat%' order by total_exec_time desc limit 8`,
      );
      for (const r of top.rows)
        lines.push(
          `${r.total.padStart(8)} ms total ${r.mean.padStart(7)} ms mean ${r.calls.padStart(6)} calls ${(Number(r.wal_bytes) / Math.max(1, Number(r.calls))).toFixed(0).padStart(5)} WAL B/call  ${r.query.slice(0, 110)}`,
        );
    }
    return { result, stats: { calls, perCall, statements: lines } };
  } finally {
    await c.end();
  }
}
