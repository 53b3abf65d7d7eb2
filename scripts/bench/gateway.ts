// Gateway overhead, same run, same machine: each gateway case is measured next to the upstream called
// directly (signed as the gateway would), so the ratio is the price of matching, pricing, the 402 challenge,
// x402 verification, the PostgreSQL lock, proxying and on-chain settlement.
//  - paid:  GET /api/v1/aggregates/AAPL with a fresh x402 proof (verify + lock + proxy + settle on anvil)
//  - free:  the unpaid discovery call, GET /api/v1/aggregates/AAPL without payment (402 challenge)
//  - direct: GET /upstream/market/v1/aggregates/AAPL, signed with the seller's secret
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { anvilPrivateKey } from "../lib/local-chain";
import { signUpstreamRequest } from "../../server/upstream-auth/signature";
import type { BenchContext } from "./types";

const PATH = "/aggregates/AAPL";
const QUERY = "from=2017-01-03&to=2017-03-31";
const N = Number(process.env.BENCH_GATEWAY_N ?? 150);
const CONCURRENCY = 8;

const phases = new Map<string, number[]>();

async function timed(fn: () => Promise<Response>, expect: number): Promise<number> {
  const t = performance.now();
  const res = await fn();
  for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
    const m = /^\s*(\w+);dur=([\d.]+)/.exec(part);
    if (m) phases.set(m[1]!, [...(phases.get(m[1]!) ?? []), Number(m[2])]);
  }
  await res.arrayBuffer();
  if (res.status !== expect) throw new Error(`expected HTTP ${expect}, got ${res.status}`);
  return performance.now() - t;
}

/** n calls, `concurrency` at a time; returns latencies and requests per second. */
async function pool(n: number, concurrency: number, call: (i: number) => Promise<number>): Promise<{ samples: number[]; rps: number }> {
  const samples: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) samples.push(await call(next++));
    }),
  );
  return { samples, rps: Math.round((n / (performance.now() - t0)) * 1000) };
}

export async function run(ctx: BenchContext) {
  const secret = ctx.env.MARKET_UPSTREAM_SECRET!;
  const gatewayUrl = `${ctx.baseUrl}/api/v1${PATH}?${QUERY}`;
  const directUrl = `${ctx.baseUrl}/upstream/market/v1${PATH}?${QUERY}`;
  const direct = () => {
    const u = new URL(directUrl);
    return fetch(u, { headers: signUpstreamRequest(secret, { method: "GET", path: u.pathname, query: u.searchParams }) });
  };
  const challenge = () => fetch(gatewayUrl);

  const clients = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => {
    const c = new x402Client();
    registerExactEvmScheme(c, { signer: privateKeyToAccount(anvilPrivateKey(i)) });
    return new x402HTTPClient(c);
  });
  /** A fresh proof per paid call (each 402 is its own challenge; proofs are single-use). */
  async function proofs(n: number): Promise<Record<string, string>[]> {
    const out: Record<string, string>[] = [];
    for (let i = 0; i < n; i++) {
      const res = await challenge();
      const http = clients[i % clients.length]!;
      const required = http.getPaymentRequiredResponse((h) => res.headers.get(h), await res.json());
      out.push(http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)));
    }
    return out;
  }

  // Warm-up (JIT, pools, catalog cache, first chain calls).
  for (let i = 0; i < 20; i++) await timed(direct, 200);
  for (let i = 0; i < 20; i++) await timed(challenge, 402);
  for (const p of await proofs(5)) await timed(() => fetch(gatewayUrl, { headers: p }), 200);
  phases.clear();

  // Sequential latency, interleaved case by case so both see the same machine state.
  const seq = { direct: [] as number[], free: [] as number[], paid: [] as number[] };
  const paidProofs = await proofs(N);
  for (let i = 0; i < N; i++) {
    seq.direct.push(await timed(direct, 200));
    seq.free.push(await timed(challenge, 402));
    seq.paid.push(await timed(() => fetch(gatewayUrl, { headers: paidProofs[i]! }), 200));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  // Where a sequential paid call's time goes (the gateway's Server-Timing), before the load phase adds queueing.
  const breakdown = Object.fromEntries([...phases].map(([k, v]) => [`${k}_p50_ms`, median(v).toFixed(1)]));
  // Throughput with CONCURRENCY callers.
  const directLoad = await pool(N, CONCURRENCY, () => timed(direct, 200));
  const freeLoad = await pool(N, CONCURRENCY, () => timed(challenge, 402));
  const loadProofs = await proofs(N);
  const paidLoad = await pool(N, CONCURRENCY, (i) => timed(() => fetch(gatewayUrl, { headers: loadProofs[i]! }), 200));

  ctx.record("upstream direct GET aggregates (signed)", seq.direct, { rps_8conn: directLoad.rps });
  ctx.record("gateway free: unpaid call -> 402 challenge", seq.free, { rps_8conn: freeLoad.rps });
  ctx.record("gateway paid x402: verify+lock+proxy+settle", seq.paid, { rps_8conn: paidLoad.rps, ...breakdown });
  ctx.ratio("gateway overhead, paid x402 call", "gateway paid x402: verify+lock+proxy+settle", "upstream direct GET aggregates (signed)");
  ctx.ratio("gateway overhead, free (402) call", "gateway free: unpaid call -> 402 challenge", "upstream direct GET aggregates (signed)");
}
