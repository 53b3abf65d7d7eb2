// The plan-covered call against the direct call, alone: `npm run bench covered` (only when named: `npm run bench`
// without names skips it, the gateway module measures the same case among the others). For A/B runs of the covered
// path in one sitting, and profiles of it (SERVER_CPU_PROF: windows "direct" and "plan", as in the gateway bench).
//  - sequential: BENCH_COVERED_N calls (300 unless set), direct and covered interleaved
//  - load: as many at BENCH_COVERED_CONCURRENCY connections (8 unless set), direct then covered, each bearer's calls
//    spread over BENCH_COVERED_BEARERS agents (1 unless set), with PostgreSQL's account of the covered load
import { aggregatesCalls } from "./lib/aggregates";
import { agentWithCredit } from "./lib/covered-kit";
import { breakdown, pct, pool, profileWindow, timed, type Phases } from "./lib/load";
import { withPgStats } from "./lib/pg-stats";
import type { BenchContext } from "./types";

const N = Number(process.env.BENCH_COVERED_N ?? 300);
const CONCURRENCY = Number(process.env.BENCH_COVERED_CONCURRENCY ?? 8);
const BEARERS = Number(process.env.BENCH_COVERED_BEARERS ?? 1);

export async function run(ctx: BenchContext) {
  if (!process.argv.slice(2).includes("covered")) return ctx.log("covered: skipped (run `npm run bench covered` to measure it alone)");
  const { gatewayUrl, direct } = aggregatesCalls(ctx);
  const bearers: Record<string, string>[] = [];
  for (let i = 0; i < BEARERS; i++) bearers.push(await agentWithCredit(ctx.baseUrl));
  const plan = (i: number) => fetch(gatewayUrl, { headers: bearers[i % bearers.length]! });

  for (let i = 0; i < 30; i++) await timed(direct, 200);
  for (let i = 0; i < 30; i++) await timed(() => plan(i), 200);

  const seq = { direct: [] as number[], plan: [] as number[] };
  const phases: Phases = new Map();
  for (let i = 0; i < N; i++) {
    seq.direct.push(await timed(direct, 200));
    seq.plan.push(await timed(() => plan(i), 200, phases));
  }
  const directLoad = await profileWindow("direct", N, () => pool(N, CONCURRENCY, () => timed(direct, 200)));
  const { result: planLoad, stats } = await withPgStats(ctx.env.DATABASE_URL!, N, () =>
    profileWindow("plan", N, () => pool(N, CONCURRENCY, (i) => timed(() => plan(i), 200))),
  );
  ctx.log(`postgres, covered load, per call: ${JSON.stringify(stats.perCall)}`);
  for (const line of stats.statements) ctx.log(`  ${line}`);

  ctx.record("covered: upstream direct GET aggregates (signed)", seq.direct, { rps: directLoad.rps, conn: CONCURRENCY });
  ctx.record("covered: plan-covered call", seq.plan, {
    rps: planLoad.rps,
    rps_vs_direct: (planLoad.rps / directLoad.rps).toFixed(2),
    over_direct_p50_ms: (pct(seq.plan, 50) - pct(seq.direct, 50)).toFixed(2),
    over_direct_p99_ms: (pct(seq.plan, 99) - pct(seq.direct, 99)).toFixed(2),
    load_p50_ms: pct(planLoad.samples, 50).toFixed(2),
    direct_load_p50_ms: pct(directLoad.samples, 50).toFixed(2),
    bearers: BEARERS,
    pg_write_xacts_per_call: stats.perCall.write_transactions!,
    pg_wal_bytes_per_call: stats.perCall.wal_bytes!,
    ...breakdown(phases),
  });
  ctx.ratio("covered: plan-covered over direct", "covered: plan-covered call", "covered: upstream direct GET aggregates (signed)");
}
