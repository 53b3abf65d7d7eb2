// Where a call's CPU goes: `npm run bench cpu` (only when named). For the floor route, the direct call, the unpaid 402
// and the plan-covered call: CPU per call of the app server (its process, from /proc), of PostgreSQL (every `postgres`
// process) and of this bench client, at BENCH_CPU_CONCURRENCY connections (8 unless set), BENCH_CPU_ROUNDS rounds
// (3 unless set) of BENCH_CPU_N calls (1,000 unless set) each, the cases alternating within a round. On a 2-core host
// the server's one thread is the bottleneck, so its CPU per call is what a case's requests per second follow; the
// first round also shows how long the JIT takes to settle. Linux only (/proc).
import { aggregatesCalls } from "./lib/aggregates";
import { agentWithCredit } from "./lib/covered-kit";
import { pool, timed } from "./lib/load";
import { namedCpuMs, procCpuAvailable, treeCpuMs } from "./lib/proc-cpu";
import type { BenchContext } from "./types";

const N = Number(process.env.BENCH_CPU_N ?? 1000);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CPU_CONCURRENCY ?? 8);

export async function run(ctx: BenchContext) {
  if (!process.argv.slice(2).includes("cpu")) return ctx.log("cpu: skipped (run `npm run bench cpu` to measure it)");
  if (!procCpuAvailable()) return ctx.log("cpu: skipped (no /proc on this host)");
  const { gatewayUrl, direct } = aggregatesCalls(ctx);
  const bearer = await agentWithCredit(ctx.baseUrl);
  const cases: [name: string, call: () => Promise<Response>, status: number][] = [
    ["floor", () => fetch(`${ctx.baseUrl}/oauth2/jwks.json`), 200],
    ["direct", direct, 200],
    ["free", () => fetch(gatewayUrl), 402],
    ["plan", () => fetch(gatewayUrl, { headers: bearer }), 200],
  ];
  const per = new Map<string, { server: number[]; postgres: number[]; client: number[]; rps: number[]; samples: number[] }>();
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, call, status] of cases) {
      const server0 = treeCpuMs(ctx.serverPid);
      const pg0 = namedCpuMs("postgres");
      const client0 = process.cpuUsage();
      const { rps, samples } = await pool(N, CONCURRENCY, () => timed(call, status));
      const client = process.cpuUsage(client0);
      const m = per.get(name) ?? { server: [], postgres: [], client: [], rps: [], samples: [] };
      m.samples = samples;
      m.server.push((treeCpuMs(ctx.serverPid) - server0) / N);
      m.postgres.push((namedCpuMs("postgres") - pg0) / N);
      m.client.push((client.user + client.system) / 1000 / N);
      m.rps.push(rps);
      per.set(name, m);
      ctx.log(
        `cpu round ${round + 1}, ${name}: ${rps} rps, server ${m.server.at(-1)!.toFixed(2)} ms/call, postgres ${m.postgres.at(-1)!.toFixed(2)}, client ${m.client.at(-1)!.toFixed(2)}`,
      );
    }
  // The last round is the settled one; the others are printed above.
  const last = (xs: number[]) => xs.at(-1)!.toFixed(2);
  const directRps = per.get("direct")!.rps.at(-1)!;
  for (const [name] of cases) {
    const m = per.get(name)!;
    // Latencies of the last round, at CONCURRENCY connections.
    ctx.record(`cpu: ${name} (round ${ROUNDS} of ${ROUNDS}, ${CONCURRENCY} connections)`, m.samples, {
      rps: m.rps.at(-1)!,
      rps_vs_direct: (m.rps.at(-1)! / directRps).toFixed(2),
      server_ms: last(m.server),
      postgres_ms: last(m.postgres),
      client_ms: last(m.client),
      server_ms_by_round: m.server.map((x) => x.toFixed(2)).join("/"),
    });
  }
}
