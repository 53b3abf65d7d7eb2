// Leased plan credit (issue 40, server/payments/rails/credits/README.md "Leased credit") beside the per-call covered
// call and the direct call, in one run: `npm run bench leased` (also part of `npm run bench`).
//  - sequential: BENCH_LEASED_N calls (600 unless set) of each, interleaved (direct, per-call covered, leased covered)
//  - load: as many at BENCH_LEASED_CONCURRENCY connections (8 unless set), each case alone, with PostgreSQL's account
//    (write transactions and WAL per call) of both covered cases
//  - beside: the leased call and the direct one, both warm, alternately (lib/load.ts `alternate`, ABBA rounds:
//    BENCH_LEASED_ALT_N calls a round, 200 unless set, 4 rounds, 300 warm-up calls). One load window per case swings
//    the rate ratio with whatever else the host runs; alternating rounds give the fair ratio and show their spread.
// The server runs with the tests' CREDIT_LEASE_CALLS=0 (so the gateway module's plan rows stay per call); this module
// sets the seller's own lease settings, which win: 0 for the per-call row, 20 calls / 5 s (the defaults) for the leased.
import pg from "pg";
import { aggregatesCalls } from "./lib/aggregates";
import { agentWithCredit } from "./lib/covered-kit";
import { alternate, alternatingFields, pct, pool, profileWindow, timed } from "./lib/load";
import { withPgStats } from "./lib/pg-stats";
import type { BenchContext } from "./types";

const N = Number(process.env.BENCH_LEASED_N ?? 600);
const CONCURRENCY = Number(process.env.BENCH_LEASED_CONCURRENCY ?? 8);
const LEASE_CALLS = 20;
const LEASE_MS = 5_000;
const ALT = { n: Number(process.env.BENCH_LEASED_ALT_N ?? 200), rounds: 4, warm: 300, concurrency: CONCURRENCY };

/** Every seller's lease settings (the bench has one storefront); the change is announced, instances drop their leases. */
async function setLeases(databaseUrl: string, calls: number, ms: number): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(
      `insert into seller_settings (seller_id, credit_lease_calls, credit_lease_ms, updated_at)
       select id, $1, $2, now() at time zone 'UTC' from sellers
       on conflict (seller_id) do update set credit_lease_calls = excluded.credit_lease_calls, credit_lease_ms = excluded.credit_lease_ms`,
      [calls, ms],
    );
  } finally {
    await c.end();
  }
  await new Promise((r) => setTimeout(r, 200));
}

export async function run(ctx: BenchContext) {
  const db = ctx.env.DATABASE_URL!;
  const { gatewayUrl, direct } = aggregatesCalls(ctx);
  const bearer = await agentWithCredit(ctx.baseUrl);
  const covered = () => fetch(gatewayUrl, { headers: bearer });
  const perCall = () => timed(covered, 200);
  const leased = () => timed(covered, 200);

  // Sequential, interleaved: the per-call row with leases off, the leased row with them on (settings switched per
  // call would drop every lease, so each covered row's calls run as blocks of 20 between direct calls).
  const seq = { direct: [] as number[], perCall: [] as number[], leased: [] as number[] };
  await setLeases(db, 0, 0);
  for (let i = 0; i < 30; i++) await perCall();
  for (let i = 0; i < N; i++) {
    seq.direct.push(await timed(direct, 200));
    seq.perCall.push(await perCall());
  }
  await setLeases(db, LEASE_CALLS, LEASE_MS);
  for (let i = 0; i < 30; i++) await leased();
  const directSeq2: number[] = [];
  for (let i = 0; i < N; i++) {
    directSeq2.push(await timed(direct, 200));
    seq.leased.push(await leased());
  }

  const directLoad = await profileWindow("direct", N, () => pool(N, CONCURRENCY, () => timed(direct, 200)));
  await setLeases(db, 0, 0);
  const perCallRun = await withPgStats(db, N, () => profileWindow("plan-per-call", N, () => pool(N, CONCURRENCY, perCall)));
  await setLeases(db, LEASE_CALLS, LEASE_MS);
  await pool(100, CONCURRENCY, leased);
  const leasedRun = await withPgStats(db, N, () => profileWindow("plan-leased", N, () => pool(N, CONCURRENCY, leased)));
  const leasedBeside = await alternate({ call: () => timed(direct, 200) }, { call: leased }, ALT);
  ctx.log(`postgres, per-call covered load, per call: ${JSON.stringify(perCallRun.stats.perCall)}`);
  ctx.log(`postgres, leased covered load, per call: ${JSON.stringify(leasedRun.stats.perCall)}`);
  for (const line of leasedRun.stats.statements) ctx.log(`  ${line}`);

  const directP50 = (pct(seq.direct, 50) + pct(directSeq2, 50)) / 2;
  const row = (samples: number[], load: { rps: number; samples: number[] }, pgs: typeof perCallRun.stats, directSamples: number[]) => ({
    rps: load.rps,
    rps_vs_direct: (load.rps / directLoad.rps).toFixed(2),
    over_direct_p50_ms: (pct(samples, 50) - pct(directSamples, 50)).toFixed(2),
    over_direct_p99_ms: (pct(samples, 99) - pct(directSamples, 99)).toFixed(2),
    load_p50_ms: pct(load.samples, 50).toFixed(2),
    pg_write_xacts_per_call: pgs.perCall.write_transactions!,
    pg_wal_bytes_per_call: pgs.perCall.wal_bytes!,
    conn: CONCURRENCY,
  });
  ctx.record("leased: upstream direct GET aggregates (signed)", [...seq.direct, ...directSeq2], {
    rps: directLoad.rps,
    load_p50_ms: pct(directLoad.samples, 50).toFixed(2),
    p50_ms: directP50.toFixed(2),
    conn: CONCURRENCY,
  });
  ctx.record("leased: plan-covered call, per call (leases off)", seq.perCall, row(seq.perCall, perCallRun.result, perCallRun.stats, seq.direct));
  ctx.record(`leased: plan-covered call, leased (${LEASE_CALLS} calls / ${LEASE_MS / 1000} s)`, seq.leased, {
    ...row(seq.leased, leasedRun.result, leasedRun.stats, directSeq2),
    ...alternatingFields(leasedBeside),
  });
  ctx.ratio(
    "leased covered over direct",
    `leased: plan-covered call, leased (${LEASE_CALLS} calls / ${LEASE_MS / 1000} s)`,
    "leased: upstream direct GET aggregates (signed)",
  );
}
