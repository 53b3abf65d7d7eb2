// PostgreSQL's own account of a bench case: the statements it ran (pg_stat_statements, when the server preloads it:
// EMBEDDED_POSTGRES_FLAGS="-c shared_preload_libraries=pg_stat_statements"), the transactions that wrote and the WAL
// they wrote (exact: transaction ids and WAL positions), and WAL flushes (pg_stat_io, approximate), taken as
// differences around the case's load.
import pg from "pg";

type Snapshot = { lsn: string; xid: number; walSyncs: number; walSyncMs: number };

export type PgCaseStats = { calls: number; perCall: Record<string, string>; statements: string[] };

async function snapshot(c: pg.Client): Promise<Snapshot> {
  // Exact, whenever read: the WAL position and the next transaction id (transactions that wrote, i.e. commits of
  // writes). The I/O counters are flushed by each backend now and then, so they lag: approximate.
  const pos = await c.query<{ lsn: string; xid: string }>("select pg_current_wal_lsn()::text as lsn, pg_snapshot_xmax(pg_current_snapshot())::text as xid");
  const io = await c
    .query<{ fsyncs: string; fsync_time: string }>(
      "select coalesce(sum(fsyncs), 0)::text as fsyncs, coalesce(sum(fsync_time), 0)::text as fsync_time from pg_stat_io where object = 'wal'",
    )
    .catch(() => ({ rows: [{ fsyncs: "0", fsync_time: "0" }] }));
  return { lsn: pos.rows[0]!.lsn, xid: Number(pos.rows[0]!.xid), walSyncs: Number(io.rows[0]?.fsyncs ?? 0), walSyncMs: Number(io.rows[0]?.fsync_time ?? 0) };
}

/** Run `load` (`calls` requests) and say what PostgreSQL did for it, per call. */
export async function withPgStats<T>(databaseUrl: string, calls: number, load: () => Promise<T>): Promise<{ result: T; stats: PgCaseStats }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    let statements = false;
    try {
      await c.query("create extension if not exists pg_stat_statements");
      await c.query("select pg_stat_statements_reset()");
      statements = true;
    } catch {
      /* not preloaded: commits and WAL only */
    }
    const before = await snapshot(c);
    const result = await load();
    await new Promise((r) => setTimeout(r, 1100));
    const after = await snapshot(c);
    const walBytes = await c.query<{ bytes: string }>("select pg_wal_lsn_diff($1, $2)::text as bytes", [after.lsn, before.lsn]);
    const per = (a: number, b: number) => ((a - b) / calls).toFixed(2);
    const perCall = {
      // Every transaction that wrote in that time (this case's, and the background work of the same seconds).
      write_transactions: per(after.xid, before.xid),
      wal_bytes: per(Number(walBytes.rows[0]!.bytes), 0),
      wal_fsyncs_approx: per(after.walSyncs, before.walSyncs),
      wal_fsync_ms_approx: per(after.walSyncMs, before.walSyncMs),
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

/** Rows inserted, updated and deleted per table (pg_stat_user_tables), for telling which tables a case writes. */
export type TableWrites = Map<string, number>;

export async function tableWrites(databaseUrl: string): Promise<TableWrites> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    // This backend's view of the counters is a snapshot per transaction: read them fresh.
    await c.query("select pg_stat_clear_snapshot()");
    const { rows } = await c.query<{ relname: string; n: string }>(`select relname, (n_tup_ins + n_tup_upd + n_tup_del)::text as n from pg_stat_user_tables`);
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  } finally {
    await c.end();
  }
}

/** The tables whose written rows changed between two snapshots, with how many. */
export function diffTableWrites(before: TableWrites, after: TableWrites): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [t, n] of after) if (n !== (before.get(t) ?? 0)) out[t] = n - (before.get(t) ?? 0);
  return out;
}
